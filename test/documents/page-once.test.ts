import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mupdf } from '../../src/documents/mupdf.js';
import type { mupdf as MuPdf } from '../../src/documents/mupdf.js';
import { readPdfTextLayer } from '../../src/documents/pdf-text.js';
import { readPdfPageOnce, renderPdfPage } from '../../src/documents/render.js';
import { DocumentError } from '../../src/domain/errors.js';
import { pdfWithLines } from '../helpers/fixtures.js';

/** A page of text with a square annotation and a drawn rule over part of it. */
function annotatedPage(): MuPdf.PDFDocument {
  const bytes = pdfWithLines([
    [
      { text: 'Aadhaar 2345 6789 0124', x: 60, y: 760 },
      { text: 'Turned line', x: 60, y: 700, size: 10 },
    ],
  ]);
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF();
  if (!doc) throw new Error('not a PDF');
  const square = (doc.loadPage(0) as MuPdf.PDFPage).createAnnotation('Square');
  square.setRect([50, 60, 300, 140]);
  square.setColor([1, 0, 0]);
  square.update();
  return doc;
}

describe('readPdfPageOnce', () => {
  it('reads the text layer a page gives when read alone, and describes the page from it', () => {
    const doc = annotatedPage();
    try {
      const once = readPdfPageOnce(doc, 0, () => null);
      assert.deepEqual(once.textLayer, readPdfTextLayer(doc, 0));
      // 22 + 11 characters; the square annotation is not part of the content stream.
      assert.deepEqual(once.content, {
        textChars: 33,
        implausibleLines: 0,
        imageCoverage: 0,
        imageDpi: null,
        vectors: 0,
      });
      assert.ok(once.textLayer.lines.some((l) => l.text === 'Aadhaar 2345 6789 0124'));
      assert.equal(once.raster, null);
      assert.equal(once.dpi, null);
    } finally {
      doc.destroy();
    }
  });

  it('renders at the resolution chosen for its content, annotations included, as a render does', () => {
    const doc = annotatedPage();
    try {
      let seen: unknown = null;
      const once = readPdfPageOnce(doc, 0, (content) => {
        seen = content;
        return 100;
      });
      assert.deepEqual(seen, once.content);
      const alone = renderPdfPage(doc, 0, 100);
      assert.equal(once.dpi, 100);
      const raster = once.raster;
      assert.ok(raster);
      assert.equal(raster.width, alone.width);
      assert.equal(raster.height, alone.height);
      assert.ok(raster.pixels.equals(alone.pixels), 'the same pixels');
      // The annotation's red border is drawn (at 100 dpi, x = 50 pt is pixel 69).
      const at = (x: number, y: number) => {
        const i = (y * alone.width + x) * 3;
        return [...raster.pixels.subarray(i, i + 3)];
      };
      const redRows = Array.from({ length: alone.height }, (_, y) => at(69, y)).filter(
        ([r, g, b]) => (r ?? 0) > 200 && (g ?? 255) < 80 && (b ?? 255) < 80,
      );
      assert.ok(redRows.length > 50, `${redRows.length} red pixels down the border`);
    } finally {
      doc.destroy();
    }
  });

  it('refuses to render a page beyond the pixel limit, as a render does', () => {
    const doc = annotatedPage();
    try {
      assert.throws(
        () => readPdfPageOnce(doc, 0, () => 600, 1_000_000),
        (error: unknown) => error instanceof DocumentError && error.code === 'page_too_large',
      );
    } finally {
      doc.destroy();
    }
  });
});
