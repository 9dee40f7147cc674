/** Covers regions of a decoded image with opaque fills. Irreversible: the pixels are replaced. */
import type { Quad, RasterImage } from '../ocr/types.js';
import { boundsOf, insideQuad } from './geometry.js';

export const COVER_COLOUR = [0, 0, 0] as const;

/** Returns a copy of the image with every quad filled (black by default); the input is untouched. */
export function coverQuads(
  image: RasterImage,
  quads: readonly Quad[],
  colour: readonly [number, number, number] = COVER_COLOUR,
): RasterImage {
  const pixels = Buffer.from(image.pixels);
  const { width, height, channels } = image;
  for (const quad of quads) {
    const b = boundsOf(quad);
    const x0 = Math.max(0, Math.floor(b.x0));
    const y0 = Math.max(0, Math.floor(b.y0));
    const x1 = Math.min(width - 1, Math.ceil(b.x1));
    const y1 = Math.min(height - 1, Math.ceil(b.y1));
    for (let y = y0; y <= y1; y += 1) {
      for (let x = x0; x <= x1; x += 1) {
        // A pixel is covered when any part of it may touch the quad: test its centre and
        // let the fill reach whole pixels on the edge (conservative, never leaves a sliver).
        if (!insideQuad(quad, x + 0.5, y + 0.5) && !touches(quad, x, y)) continue;
        const at = (y * width + x) * channels;
        pixels[at] = colour[0];
        pixels[at + 1] = colour[1];
        pixels[at + 2] = colour[2];
        if (channels === 4) pixels[at + 3] = 255;
      }
    }
  }
  return { ...image, pixels };
}

function touches(quad: Quad, x: number, y: number): boolean {
  return (
    insideQuad(quad, x, y) ||
    insideQuad(quad, x + 1, y) ||
    insideQuad(quad, x, y + 1) ||
    insideQuad(quad, x + 1, y + 1)
  );
}
