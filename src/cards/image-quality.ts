/**
 * Measures of a page image that warnings rest on. Contrast is measured where the text is: the
 * spread between the darkest and the lightest few percent of luminance inside the boxes of the
 * lines read. Ink on paper spans most of 0-255; a faded or washed-out scan a small part of it.
 * (Over the whole page, the white margin of an A4 printout would hide a dark card.)
 */
import type { RasterImage } from '../domain/raster.js';
import type { TextLine } from '../domain/text-layer.js';

/** Below this spread (levels between the 5th and 95th percentiles) text is low in contrast. */
export const LOW_CONTRAST_SPREAD = 110;

/** Luminance spread between the 5th and 95th percentile of the pixels inside the lines' boxes. */
export function textContrast(image: RasterImage, lines: readonly TextLine[]): number | null {
  const { width, height, channels, pixels } = image;
  const histogram = new Uint32Array(256);
  let total = 0;
  for (const line of lines) {
    const xs = line.quad.map((p) => p.x);
    const ys = line.quad.map((p) => p.y);
    const [x0, x1] = [
      Math.max(0, Math.floor(Math.min(...xs))),
      Math.min(width, Math.ceil(Math.max(...xs))),
    ];
    const [y0, y1] = [
      Math.max(0, Math.floor(Math.min(...ys))),
      Math.min(height, Math.ceil(Math.max(...ys))),
    ];
    // About 4000 samples a line, whatever its size.
    const step = Math.max(1, Math.floor(Math.sqrt(((x1 - x0) * (y1 - y0)) / 4000)));
    for (let y = y0; y < y1; y += step) {
      for (let x = x0; x < x1; x += step) {
        const at = (y * width + x) * channels;
        const luma = Math.round(
          0.299 * (pixels[at] ?? 0) + 0.587 * (pixels[at + 1] ?? 0) + 0.114 * (pixels[at + 2] ?? 0),
        );
        histogram[luma] = (histogram[luma] ?? 0) + 1;
        total += 1;
      }
    }
  }
  if (total === 0) return null;
  const percentile = (p: number): number => {
    let seen = 0;
    for (let level = 0; level < 256; level += 1) {
      seen += histogram[level] ?? 0;
      if (seen >= p * total) return level;
    }
    return 255;
  };
  return percentile(0.95) - percentile(0.05);
}
