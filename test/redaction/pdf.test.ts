import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findAadhaarOnPage } from '../../src/detection/aadhaar.js';
import { mupdf } from '../../src/documents/mupdf.js';
import { renderPdfPage } from '../../src/documents/render.js';
import { readPdfTextLayer } from '../../src/documents/pdf-text.js';
import { spanQuad } from '../../src/redaction/geometry.js';
import { savePdfOutput } from '../../src/documents/pdf-output.js';
import { redactPdf } from '../../src/redaction/pdf.js';
import { pdfWithLines } from '../helpers/fixtures.js';

const NUMBER = '2345 6789 0124';

function open(bytes: Buffer): mupdf.PDFDocument {
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF();
  if (!doc) throw new Error('not a PDF');
  return doc;
}

function pageText(doc: mupdf.PDFDocument, index: number): string {
  const page = doc.loadPage(index);
  const text = page.toStructuredText('preserve-whitespace');
  const result = text.asText();
  text.destroy();
  page.destroy();
  return result;
}

describe('PDF text layer and redaction', () => {
  it('reads characters with their quads in top-left page coordinates', () => {
    const doc = open(pdfWithLines([[{ text: `Aadhaar ${NUMBER}`, x: 100, y: 700, size: 20 }]]));
    const layer = readPdfTextLayer(doc, 0);
    assert.equal(layer.unit, 'pt');
    assert.deepEqual([layer.width, layer.height], [595, 842]);
    const [line] = layer.lines;
    assert.ok(line);
    assert.equal(line.text, `Aadhaar ${NUMBER}`);
    assert.equal(line.orientation, 0);
    const first = line.chars[0]?.quad;
    assert.ok(first);
    assert.ok(Math.abs(first[0].x - 100) < 1, String(first[0].x));
    // Baseline 700 pt from the bottom is 142 pt from the top; glyphs sit above it.
    assert.ok(first[3].y > 138 && first[3].y < 148, String(first[3].y));
    assert.ok(first[0].y < first[3].y);
    doc.destroy();
  });

  it('removes the covered digits from the content stream and keeps the rest searchable', () => {
    const doc = open(
      pdfWithLines([
        [
          { text: `Aadhaar ${NUMBER}`, x: 100, y: 700, size: 20 },
          { text: 'Name: Test Person', x: 100, y: 650 },
        ],
      ]),
    );
    const { findings } = findAadhaarOnPage(readPdfTextLayer(doc, 0));
    const [finding] = findings;
    assert.ok(finding);
    redactPdf(doc, [{ page: 0, quads: [spanQuad(finding.charQuads, 0, 7)] }]);
    const output = savePdfOutput(doc);
    doc.destroy();

    assert.ok(!output.includes(Buffer.from('2345')), 'no trace in the raw bytes');
    const reopened = open(output);
    const text = pageText(reopened, 0);
    assert.doesNotMatch(text, /2345|6789/);
    assert.match(text, /0124/);
    assert.match(text, /Name: Test Person/);
    // The box is drawn where the digits were.
    const layer = readPdfTextLayer(reopened, 0);
    assert.ok(layer.lines.some((l) => l.text.includes('0124')));
    const image = renderPdfPage(reopened, 0, 72);
    const at = (x: number, y: number) => image.pixels[(y * image.width + x) * 3] ?? -1;
    const quad = finding.charQuads[2];
    assert.ok(quad);
    const cx = Math.round((quad[0].x + quad[1].x) / 2);
    const cy = Math.round((quad[0].y + quad[3].y) / 2);
    assert.equal(at(cx, cy), 0, 'the region is opaque black');
    reopened.destroy();
  });
});
