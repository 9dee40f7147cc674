/** Covers regions of a decoded image with opaque fills. Irreversible: the pixels are replaced. */
import type { Quad } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';
import { boundsOf, insideQuad } from './geometry.js';

export const COVER_COLOUR = [0, 0, 0] as const;

/** Returns a copy of the image with every quad filled (black by default); the input is untouched. */
export function coverQuads(
  image: RasterImage,
  quads: readonly Quad[],
  colour: readonly [number, number, number] = COVER_COLOUR,
): RasterImage {
  return coverQuadsInPlace({ ...image, pixels: Buffer.from(image.pixels) }, quads, colour);
}

/**
 * Fills every quad of the image itself and returns it: for pixels nobody else holds (a page
 * rendered for this output), where a copy of a whole page would only feed the garbage collector.
 */
export function coverQuadsInPlace(
  image: RasterImage,
  quads: readonly Quad[],
  colour: readonly [number, number, number] = COVER_COLOUR,
): RasterImage {
  const { width, height, channels, pixels } = image;
  const fill = Buffer.from(channels === 4 ? [...colour, 255] : colour.slice(0, channels));
  for (const quad of quads) {
    const b = boundsOf(quad);
    const x0 = Math.max(0, Math.floor(b.x0));
    const y0 = Math.max(0, Math.floor(b.y0));
    const x1 = Math.min(width - 1, Math.ceil(b.x1));
    const y1 = Math.min(height - 1, Math.ceil(b.y1));
    for (let y = y0; y <= y1; y += 1) {
      // Covers are convex, so a row's covered pixels run from its first to its last one: find
      // both ends and fill between in one call (a page holds millions of pixels per request).
      let first = x0;
      while (first <= x1 && !covered(quad, first, y)) first += 1;
      if (first > x1) continue;
      let last = x1;
      while (last > first && !covered(quad, last, y)) last -= 1;
      const row = y * width;
      pixels.fill(fill, (row + first) * channels, (row + last + 1) * channels);
    }
  }
  return image;
}

/**
 * A pixel is covered when any part of it may touch the quad: its centre or a corner is inside
 * (conservative: the fill reaches whole pixels on the edge and never leaves a sliver).
 */
function covered(quad: Quad, x: number, y: number): boolean {
  return (
    insideQuad(quad, x + 0.5, y + 0.5) ||
    insideQuad(quad, x, y) ||
    insideQuad(quad, x + 1, y) ||
    insideQuad(quad, x, y + 1) ||
    insideQuad(quad, x + 1, y + 1)
  );
}
