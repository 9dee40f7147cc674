import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mupdf } from '../../../src/documents/mupdf.js';
import { savePdfOutput } from '../../../src/documents/pdf-output.js';
import { readPdfTextLayer } from '../../../src/documents/pdf-text.js';
import { spanQuad } from '../../../src/redaction/geometry.js';
import { box, BOX_RUN } from '../../../src/redaction/operators/box.js';
import { StandIns } from '../../../src/redaction/stand-ins.js';
import { pdfWithLines } from '../../helpers/fixtures.js';
import { assertChangedOnly, patterned } from '../../helpers/raster.js';
import { quad } from '../../helpers/text-layer.js';

/** A region from x 10.5 to 20.5 and y 4.5 to 8.5: it touches pixel columns 10-20, rows 4-8. */
const REGION = quad(10.5, 4.5, 10, 4);
const TOUCHED = { x0: 10, y0: 4, x1: 20, y1: 8 };

function openPdf(bytes: Buffer): mupdf.PDFDocument {
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF();
  if (!doc) throw new Error('not a PDF');
  return doc;
}

describe('box operator', () => {
  it('fills the pixels the region touches black and leaves every other pixel', () => {
    const image = patterned(32, 16);
    const out = box.image(image, [REGION]);
    assertChangedOnly(image, out, TOUCHED, (pixel) => {
      assert.deepEqual(pixel, [0, 0, 0]);
    });
    assert.ok(image.pixels.equals(patterned(32, 16).pixels), 'the input is untouched');
  });

  it('fills the same pixels in place for pixels nobody else holds', () => {
    const image = patterned(32, 16);
    const out = box.imageInPlace(image, [REGION]);
    assert.equal(out, image);
    assert.ok(out.pixels.equals(box.image(patterned(32, 16), [REGION]).pixels));
  });

  it("takes the text under the region out of a PDF page's text and keeps the rest", () => {
    const doc = openPdf(
      pdfWithLines([
        [
          { text: 'SSN 123-45-6789', x: 100, y: 700, size: 20 },
          { text: 'Name: Test Person', x: 100, y: 650 },
        ],
      ]),
    );
    const [line] = readPdfTextLayer(doc, 0).lines;
    assert.ok(line);
    assert.match(line.text, /^SSN/);
    const chars = line.chars.map((c) => c.quad);
    // The value's characters only: "SSN " stays.
    box.pdf(doc, 0, [spanQuad(chars, 4, chars.length - 1, 0)]);
    const reopened = openPdf(savePdfOutput(doc));
    doc.destroy();
    const text = readPdfTextLayer(reopened, 0)
      .lines.map((l) => l.text)
      .join('\n');
    reopened.destroy();
    assert.doesNotMatch(text, /123|45|6789/);
    assert.match(text, /SSN/);
    assert.match(text, /Name: Test Person/);
  });

  it('puts the same fixed run of block characters in place of any value in text', () => {
    const context = { rule: undefined, maskKeep: 4, standIns: new StandIns() };
    assert.equal(BOX_RUN, '████████');
    assert.equal(box.text({ type: 'EMAIL', value: 'a@b.io' }, 'a@b.io', context), BOX_RUN);
    const long = 'GB82WEST12345698765432';
    assert.equal(box.text({ type: 'IBAN', value: long }, long, context), BOX_RUN);
  });
});
