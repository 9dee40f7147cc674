import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blur } from '../../../src/redaction/operators/blur.js';
import { assertChangedOnly, raster } from '../../helpers/raster.js';
import { quad } from '../../helpers/text-layer.js';

describe('blur operator', () => {
  it('averages the region in blocks half its height and leaves every other pixel', () => {
    // A checkerboard: each 4 x 4 block of the 8 x 8 region averages to 127.5.
    const image = raster(24, 24, (x, y) => ((x + y) % 2 === 0 ? [0, 0, 0] : [255, 255, 255]));
    const out = blur.image(image, [quad(8, 8, 8, 8)]);
    assertChangedOnly(image, out, { x0: 8, y0: 8, x1: 15, y1: 15 }, (pixel) => {
      assert.deepEqual(pixel, [128, 128, 128]);
    });
  });

  it('keeps what differs between blocks, and nothing within one', () => {
    const image = raster(24, 24, (x) => (x < 12 ? [0, 0, 0] : [200, 100, 50]));
    const out = blur.image(image, [quad(8, 8, 8, 8)]);
    assertChangedOnly(image, out, { x0: 8, y0: 8, x1: 15, y1: 15 }, (pixel, x) => {
      assert.deepEqual(pixel, x < 12 ? [0, 0, 0] : [200, 100, 50]);
    });
  });

  it('has no PDF form: a PDF keeps its text', () => {
    assert.equal(blur.pdf, null);
  });
});
