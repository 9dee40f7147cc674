/**
 * A page's dark, neutral print alone, for a second reading where marks over it (a blue or
 * violet stamp, a ballpoint line, a red or grey SAMPLE mark) hid a line from the reader: a pixel
 * whose brightest channel is above INK_MAX (paper, or a coloured or light mark on it) becomes
 * white, the others keep their grey. A translucent mark over a digit leaves every channel dark
 * there and stays part of the digit; an opaque coloured line crossing a stroke leaves a thin
 * gap in it, which the reader tolerates far better than the line itself.
 */
import type { RasterImage } from '../domain/raster.js';

/**
 * Print is near black in every channel (card digits ~15, photographed ~20-90); a blue ballpoint
 * line or a violet stamp keeps its blue channel above ~120 even over black print.
 */
const INK_MAX = 120;

export function printInk(image: RasterImage): RasterImage {
  const { width, height, channels, pixels } = image;
  const out = Buffer.alloc(width * height * 3);
  for (let i = 0, at = 0; at < out.length; i += channels, at += 3) {
    const r = pixels[i] as number;
    const g = pixels[i + 1] as number;
    const b = pixels[i + 2] as number;
    // Transparent pixels (RGBA) read as paper, as the detector's flattened input has them.
    const opaque = channels === 3 || (pixels[i + 3] as number) > 127;
    const grey = opaque && Math.max(r, g, b) <= INK_MAX ? (r * 77 + g * 150 + b * 29) >> 8 : 255;
    out[at] = grey;
    out[at + 1] = grey;
    out[at + 2] = grey;
  }
  return { width, height, channels: 3, pixels: out };
}
