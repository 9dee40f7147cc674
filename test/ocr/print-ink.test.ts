import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { printInk } from '../../src/ocr/print-ink.js';
import type { RasterImage } from '../../src/domain/raster.js';

/** A one-row raster of the given pixels. */
function row(pixels: readonly (readonly number[])[], channels: 3 | 4 = 3): RasterImage {
  return {
    width: pixels.length,
    height: 1,
    channels,
    pixels: Buffer.from(pixels.flat()),
  };
}

const greys = (image: RasterImage) =>
  Array.from({ length: image.width }, (_, i) => image.pixels[i * 3] as number);

describe('the dark print of a page alone', () => {
  it('keeps near-black print and whitens paper and coloured or light marks', () => {
    const out = printInk(
      row([
        [13, 13, 13], // card print
        [70, 72, 80], // print in a dim photo
        [92, 16, 18], // a translucent red SAMPLE mark over print
        [245, 244, 240], // paper
        [62, 79, 165], // blue ballpoint on paper
        [24, 41, 128], // blue ballpoint over print
        [136, 97, 187], // a violet stamp
        [240, 189, 190], // a red SAMPLE mark on paper
        [187, 187, 187], // a grey one
      ]),
    );
    assert.equal(out.channels, 3);
    assert.deepEqual(greys(out), [13, 72, 39, 255, 255, 255, 255, 255, 255]);
    // Grey in all three channels.
    assert.deepEqual([...out.pixels.subarray(3, 6)], [72, 72, 72]);
  });

  it('reads transparent pixels as paper', () => {
    const out = printInk(
      row(
        [
          [0, 0, 0, 0],
          [0, 0, 0, 255],
        ],
        4,
      ),
    );
    assert.deepEqual(greys(out), [255, 0]);
  });
});
