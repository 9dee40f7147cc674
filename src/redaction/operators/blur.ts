/**
 * Blur: a value's region pixelated beyond recovery, over images only. It has no PDF form: a PDF
 * keeps its text, which blurring the page's pixels would leave in the content stream.
 */
import type { Quad } from '../../domain/geometry.js';
import type { RasterImage } from '../../domain/raster.js';
import { boundsOf, type Box } from '../geometry.js';
import type { Operator } from './types.js';

function pixelBox(image: RasterImage, quad: Quad): Box {
  const b = boundsOf(quad);
  return {
    x0: Math.max(0, Math.floor(b.x0)),
    y0: Math.max(0, Math.floor(b.y0)),
    x1: Math.min(image.width, Math.ceil(b.x1)),
    y1: Math.min(image.height, Math.ceil(b.y1)),
  };
}

/**
 * Each quad's box pixelated into blocks half the box's height and then smoothed: a blur whose
 * information is gone. A Gaussian alone can be partly undone (deconvolution, or matching blurred
 * renderings of candidate values); averaging whole blocks of the size of a character's strokes
 * leaves nothing of the characters to recover.
 */
export function blurQuads(image: RasterImage, quads: readonly Quad[]): RasterImage {
  const pixels = Buffer.from(image.pixels);
  const { width, channels } = image;
  for (const quad of quads) {
    const box = pixelBox(image, quad);
    const block = Math.max(4, Math.ceil((box.y1 - box.y0) / 2));
    for (let by = box.y0; by < box.y1; by += block) {
      for (let bx = box.x0; bx < box.x1; bx += block) {
        const ey = Math.min(box.y1, by + block);
        const ex = Math.min(box.x1, bx + block);
        const sum = [0, 0, 0];
        for (let y = by; y < ey; y += 1) {
          for (let x = bx; x < ex; x += 1) {
            const at = (y * width + x) * channels;
            for (let c = 0; c < 3; c += 1) sum[c] = (sum[c] ?? 0) + (pixels[at + c] ?? 0);
          }
        }
        const n = Math.max(1, (ey - by) * (ex - bx));
        for (let y = by; y < ey; y += 1) {
          for (let x = bx; x < ex; x += 1) {
            const at = (y * width + x) * channels;
            for (let c = 0; c < 3; c += 1) pixels[at + c] = Math.round((sum[c] ?? 0) / n);
          }
        }
      }
    }
  }
  return { ...image, pixels };
}

export const blur: Operator<Quad> = { image: blurQuads, pdf: null };
