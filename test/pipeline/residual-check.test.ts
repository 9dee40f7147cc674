import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { holdsAadhaarNumber } from '../../src/identifiers/in/aadhaar.js';
import type { Quad } from '../../src/domain/geometry.js';
import type { RasterImage } from '../../src/domain/raster.js';
import type { PageText } from '../../src/domain/text-layer.js';
import type { OcrEngine } from '../../src/ocr/types.js';
import { readableTargets } from '../../src/pipeline/residual-check.js';
import { Rng } from '../fixtures/aadhaar/random.js';
import { groupDigits, randomAadhaar, randomVid } from '../fixtures/aadhaar/verhoeff.js';

const box = (x0: number, y0: number, x1: number, y1: number): Quad => [
  { x: x0, y: y0 },
  { x: x1, y: y0 },
  { x: x1, y: y1 },
  { x: x0, y: y1 },
];

const page: RasterImage = {
  width: 400,
  height: 200,
  channels: 3,
  pixels: Buffer.alloc(400 * 200 * 3, 255),
};

/** An engine that reads the given lines, at the given boxes of the crop, whatever it is shown. */
function engineReading(lines: readonly { text: string; quad: Quad }[]): OcrEngine {
  return {
    read: (image: RasterImage, pageIndex: number): Promise<PageText> =>
      Promise.resolve({
        page: pageIndex,
        width: image.width,
        height: image.height,
        unit: 'px',
        source: 'ocr',
        lines: lines.map((l) => ({
          text: l.text,
          quad: l.quad,
          chars: [],
          confidence: 0.99,
          orientation: 0,
        })),
      }),
  } as unknown as OcrEngine;
}

const digits = (text: string) => text.replace(/\D/g, '');

describe('holdsAadhaarNumber', () => {
  const rng = new Rng(11);
  it('finds a valid number in 4-4-4 groups or unbroken, and not inside a VID', () => {
    const number = randomAadhaar(rng);
    assert.equal(holdsAadhaarNumber(`Aadhaar ${groupDigits(number)}`), true);
    assert.equal(holdsAadhaarNumber(`no.${number}.`), true);
    const broken = `${number.slice(0, 11)}${(Number(number[11]) + 1) % 10}`;
    assert.equal(holdsAadhaarNumber(groupDigits(broken)), false);
    const vid = randomVid(rng);
    for (let k = 0; k < 20; k += 1) {
      assert.equal(holdsAadhaarNumber(`VID : ${groupDigits(randomVid(rng))}`), false);
    }
    assert.equal(holdsAadhaarNumber(groupDigits(vid)), false);
  });
});

describe('readableTargets', () => {
  const target = { quads: [box(100, 80, 220, 110)], hidden: ['23456789'] };
  // The crop starts half the region's height (15 px) before it and is enlarged 1.25x.
  const overCover = box(10, 10, 200, 50);
  const besideCover = box(10, 120, 200, 150);
  const rng = new Rng(5);

  it('counts the covered characters read again', async () => {
    const ocr = engineReading([{ text: '2345 6789 1234', quad: overCover }]);
    assert.deepEqual(await readableTargets(page, [target], ocr, 0, digits, 'numbers'), [0]);
  });

  it('counts a new valid number on a line crossing the cover, not on a line beside it', async () => {
    const fresh = groupDigits(randomAadhaar(rng));
    const over = engineReading([{ text: fresh, quad: overCover }]);
    const beside = engineReading([{ text: fresh, quad: besideCover }]);
    const appears = holdsAadhaarNumber;
    assert.deepEqual(await readableTargets(page, [target], over, 0, digits, 'numbers'), []);
    assert.deepEqual(
      await readableTargets(page, [target], over, 0, digits, 'numbers', appears),
      [0],
    );
    assert.deepEqual(
      await readableTargets(page, [target], beside, 0, digits, 'numbers', appears),
      [],
    );
  });
});
