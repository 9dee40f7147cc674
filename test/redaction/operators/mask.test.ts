import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mupdf } from '../../../src/documents/mupdf.js';
import { savePdfOutput } from '../../../src/documents/pdf-output.js';
import { readPdfTextLayer } from '../../../src/documents/pdf-text.js';
import { spanQuad } from '../../../src/redaction/geometry.js';
import { mask, maskValue } from '../../../src/redaction/operators/mask.js';
import { StandIns } from '../../../src/redaction/stand-ins.js';
import { pdfWithLines } from '../../helpers/fixtures.js';
import { assertChangedOnly, patterned } from '../../helpers/raster.js';
import { quad } from '../../helpers/text-layer.js';

const context = (maskKeep: number) => ({ rule: undefined, maskKeep, standIns: new StandIns() });

describe('mask operator', () => {
  it('keeps the last N letters and digits and every separator', () => {
    assert.equal(maskValue('123-45-6789', 4), '***-**-6789');
    assert.equal(maskValue('123-45-6789', 0), '***-**-****');
    assert.equal(maskValue('GB82 WEST 1234', 6), '**** **ST 1234');
    assert.equal(maskValue('ab', 8), 'ab');
    assert.equal(maskValue('jörg@x.de', 3), '****@x.de');
  });

  it('masks the value as printed, whatever its compacted form', () => {
    const found = { type: 'US_SSN', value: '123456789' };
    assert.equal(mask.text(found, '123 45 6789', context(2)), '*** ** **89');
  });

  it('covers the region white and draws the masked value in it, nothing outside', () => {
    const image = patterned(160, 40);
    const region = quad(20.5, 8.5, 100, 20);
    const text = '***-**-6789';
    const out = mask.image(image, [{ quad: region, textQuad: region, source: 'ocr', text }]);
    let dark = 0;
    assertChangedOnly(image, out, { x0: 20, y0: 8, x1: 120, y1: 28 }, (pixel) => {
      const [r, g, b] = pixel as [number, number, number];
      // White cover, black text, grey only where the text's edges are smoothed.
      assert.ok(r === g && g === b, `grey: ${pixel.join(',')}`);
      if (r < 100) dark += 1;
    });
    assert.ok(dark > 50, `the text is drawn (${dark} dark pixels)`);
    const blank = mask.image(image, [{ quad: region, textQuad: region, source: 'ocr', text: '' }]);
    assertChangedOnly(image, blank, { x0: 20, y0: 8, x1: 120, y1: 28 }, (pixel) => {
      assert.deepEqual(pixel, [255, 255, 255]);
    });
  });

  it("replaces the value in a PDF page's text by the masked value, the rest kept", () => {
    const doc = mupdf.Document.openDocument(
      pdfWithLines([
        [
          { text: 'SSN 123-45-6789', x: 100, y: 700, size: 20 },
          { text: 'Name: Test Person', x: 100, y: 650 },
        ],
      ]),
      'application/pdf',
    ).asPDF();
    assert.ok(doc);
    const [line] = readPdfTextLayer(doc, 0).lines;
    assert.ok(line);
    const chars = line.chars.map((c) => c.quad);
    const region = spanQuad(chars, 4, chars.length - 1, 0);
    mask.pdf(doc, 0, [{ quad: region, textQuad: region, source: 'pdf', text: '***-**-6789' }]);
    const reopened = mupdf.Document.openDocument(savePdfOutput(doc), 'application/pdf').asPDF();
    doc.destroy();
    assert.ok(reopened);
    const text = readPdfTextLayer(reopened, 0)
      .lines.map((l) => l.text)
      .join('\n');
    reopened.destroy();
    assert.doesNotMatch(text, /123|-45-/);
    assert.match(text, /\*\*\*-\*\*-6789/);
    assert.match(text, /SSN/);
    assert.match(text, /Name: Test Person/);
  });
});
