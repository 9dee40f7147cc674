import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mupdf } from '../../src/documents/mupdf.js';
import type { mupdf as MuPdf } from '../../src/documents/mupdf.js';
import type { PageContent } from '../../src/documents/page-content.js';
import { readPdfPageOnce } from '../../src/documents/render.js';

const TEXT = 'BT /F1 12 Tf 60 760 Td (Account 4111 1111 1111 1111) Tj ET';

/** One A4 page drawing `contents`, with Helvetica as F1 and a 40 x 20 grey image as Im1. */
function pageDrawing(contents: string): MuPdf.PDFDocument {
  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font('Helvetica'));
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 40, 20], false);
  pixmap.clear(128);
  const image = doc.addImage(new mupdf.Image(pixmap));
  pixmap.destroy();
  const resources = doc.addObject({ Font: { F1: font }, XObject: { Im1: image } });
  doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, contents));
  return doc;
}

/** What the page is made of, as the read step describes it. */
function described(doc: MuPdf.PDFDocument): PageContent {
  try {
    return readPdfPageOnce(doc, 0, () => null).content;
  } finally {
    doc.destroy();
  }
}

describe('what a PDF page is made of', () => {
  it('counts the characters of its text layer, and no image or drawing on a page of text alone', () => {
    // Text set inside a clipping rectangle: clipping paints nothing.
    const content = described(pageDrawing(`q 50 700 400 100 re W n ${TEXT} Q`));
    assert.deepEqual(content, {
      textChars: 27,
      implausibleLines: 0,
      imageCoverage: 0,
      imageDpi: null,
      vectors: 0,
    });
  });

  it('describes a page that draws a rule, a filled box or an image from its structured text', () => {
    const drawn = {
      rule: `${TEXT} 0 0 0 RG 2 w 60 740 m 400 740 l S`,
      box: `${TEXT} 0.5 g 60 600 200 80 re f`,
      image: `${TEXT} q 200 0 0 100 60 500 cm /Im1 Do Q`,
    };
    for (const [name, contents] of Object.entries(drawn)) {
      const content = described(pageDrawing(contents));
      assert.equal(content.textChars, 27, name);
      if (name === 'image') {
        // 200 x 100 points of a 595 x 842 page, 40 pixels across 200 points: 14.4 dpi.
        assert.ok(Math.abs(content.imageCoverage - (200 * 100) / (595 * 842)) < 1e-6);
        assert.ok(Math.abs((content.imageDpi ?? 0) - 14.4) < 0.01, `${content.imageDpi}`);
        assert.equal(content.vectors, 0);
      } else {
        assert.equal(content.imageCoverage, 0, name);
        assert.equal(content.imageDpi, null, name);
        assert.ok(content.vectors > 0, name);
      }
    }
  });

  it('counts no characters on a page without text, with or without drawing', () => {
    assert.equal(described(pageDrawing('')).textChars, 0);
    assert.equal(described(pageDrawing('q 200 0 0 100 60 500 cm /Im1 Do Q')).textChars, 0);
  });
});
