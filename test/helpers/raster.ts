/** Small synthetic rasters for the operators' tests, and exact checks of what changed. */
import assert from 'node:assert/strict';
import type { RasterImage } from '../../src/domain/raster.js';
import type { BoxLike } from './pixels.js';

/** An RGB image whose pixel (x, y) is `colour(x, y)`. */
export function raster(
  width: number,
  height: number,
  colour: (x: number, y: number) => readonly [number, number, number],
): RasterImage {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) pixels.set(colour(x, y), (y * width + x) * 3);
  }
  return { width, height, channels: 3, pixels };
}

/** Every pixel a colour of its own, none black or white: any change shows. */
export const patterned = (width: number, height: number): RasterImage =>
  raster(width, height, (x, y) => [40 + ((x * 7) % 160), 40 + ((y * 11) % 160), 100]);

export function pixelAt(image: RasterImage, x: number, y: number): number[] {
  const at = (y * image.width + x) * image.channels;
  return [...image.pixels.subarray(at, at + image.channels)];
}

/**
 * Every pixel outside `box` (pixel indexes, inclusive) is as in `before`; every one inside is
 * checked by `inside`.
 */
export function assertChangedOnly(
  before: RasterImage,
  after: RasterImage,
  box: BoxLike,
  inside: (pixel: number[], x: number, y: number) => void,
): void {
  assert.deepEqual([after.width, after.height], [before.width, before.height]);
  for (let y = 0; y < before.height; y += 1) {
    for (let x = 0; x < before.width; x += 1) {
      const within = x >= box.x0 && x <= box.x1 && y >= box.y0 && y <= box.y1;
      if (within) inside(pixelAt(after, x, y), x, y);
      else assert.deepEqual(pixelAt(after, x, y), pixelAt(before, x, y), `(${x}, ${y}) kept`);
    }
  }
}
