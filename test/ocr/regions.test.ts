import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contentRegions } from '../../src/ocr/regions.js';
import type { RasterImage } from '../../src/domain/raster.js';

/** A white RGB page with dark rectangles on it. */
function page(
  width: number,
  height: number,
  marks: readonly [number, number, number, number][],
): RasterImage {
  const pixels = Buffer.alloc(width * height * 3, 255);
  for (const [x0, y0, w, h] of marks) {
    for (let y = y0; y < y0 + h; y += 1)
      pixels.fill(30, (y * width + x0) * 3, (y * width + x0 + w) * 3);
  }
  return { width, height, channels: 3, pixels };
}

describe('content regions of a big page', () => {
  it('finds each patch of content with a margin, and nothing of the blank paper', () => {
    const marks: [number, number, number, number][] = [
      [300, 400, 1000, 60],
      [300, 600, 700, 40],
      [1900, 2500, 40, 800],
    ];
    const regions = contentRegions(page(2480, 3508, marks), 0.6);
    for (const [x, y, w, h] of marks) {
      const holder = regions.find(
        (r) =>
          r.left <= x - 30 &&
          r.top <= y - 30 &&
          r.left + r.width >= x + w + 30 &&
          r.top + r.height >= y + h + 30,
      );
      assert.ok(holder, `no region holds the mark at ${x},${y} with a margin`);
    }
    const area = regions.reduce((sum, r) => sum + r.width * r.height, 0);
    assert.ok(area < 0.15 * 2480 * 3508, `regions cover ${area} pixels`);
  });

  it('returns the whole page when content covers most of it', () => {
    const busy = page(2000, 2000, [[100, 100, 1800, 1800]]);
    assert.deepEqual(contentRegions(busy, 0.6), [{ left: 0, top: 0, width: 2000, height: 2000 }]);
  });
});
