import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findAadhaarOnPage } from '../../src/detection/aadhaar.js';
import type { RasterImage } from '../../src/domain/raster.js';
import type { PageText } from '../../src/domain/text-layer.js';
import type { OcrEngine } from '../../src/ocr/types.js';
import { readUnderMarks } from '../../src/services/aadhaar-second-look.js';
import { line, page } from '../helpers/text-layer.js';

/** One blue pixel over white: what a ballpoint line leaves. */
const RASTER: RasterImage = {
  width: 2,
  height: 1,
  channels: 3,
  pixels: Buffer.from([62, 79, 165, 13, 13, 13]),
};

/** An engine that reads `reading` from whatever it is given, and keeps what it was given. */
function engine(reading: PageText): OcrEngine & { seen: RasterImage[] } {
  const seen: RasterImage[] = [];
  return {
    seen,
    read: async (image) => {
      seen.push(image);
      return reading;
    },
    close: async () => undefined,
  };
}

const look = readUnderMarks((p) => findAadhaarOnPage(p).findings);
const card = (text: string) =>
  page([line('Government of India', { y: 10 }), line(text, { y: 40 })]);

describe('the second look at an Aadhaar page under marks', () => {
  it('reads the page again from its dark print alone and takes the numbers found there', async () => {
    const again = page([
      line('Government of India', { y: 10 }),
      line('2345 6789 0124', { y: 40 }),
      line('Aadhaar 9876 5432 1098', { y: 70 }),
    ]);
    const ocr = engine(again);
    const found = await look(card('2345 67'), RASTER, ocr);
    assert.deepEqual(
      found.map((f) => f.value),
      ['234567890124', '987654321098'],
    );
    assert.equal(ocr.seen.length, 1);
    assert.deepEqual([...(ocr.seen[0]?.pixels ?? [])], [255, 255, 255, 13, 13, 13]);
  });

  it('reads nothing again on other pages or text layers', async () => {
    const ocr = engine(card('2345 6789 0124'));
    assert.deepEqual(await look(page([line('Tax Invoice'), line('2345 67')]), RASTER, ocr), []);
    assert.deepEqual(await look({ ...card('2345 67'), source: 'pdf' }, RASTER, ocr), []);
    assert.equal(ocr.seen.length, 0);
  });
});
