/**
 * Where a QR code is, from its texture alone, for the symbols ZXing does not even locate: a
 * small, dense legacy XML QR in a phone photo (measured: a 100-px symbol at under two pixels
 * a module beside the large Secure QR, found by neither of ZXing's binarizers at any scale up
 * to 2x). A QR code is a solid square of cells whose pixels change sharply both along rows
 * and down columns; text, photos and card backgrounds are sparse in such cells or not square.
 * What this finds is only ever covered (fail closed), never decoded.
 */
import type { Quad, RasterImage } from '../ocr/types.js';

/** Cell side in (possibly halved) pixels. */
const CELL = 8;
/** A neighbour this much lighter or darker is an edge. */
const EDGE = 35;
/** Share of a cell's pixels on an edge, along rows and down columns alike. */
const BUSY = 0.12;
/** Darkest to lightest in a cell: ink on paper, not noise. */
const CONTRAST = 80;
/** Smallest block, in cells, and how square and how full it must be. */
const MIN_CELLS = 6;
const MAX_ASPECT = 1.6;
const MIN_FILL = 0.8;
/** Images larger than this are examined at half resolution (their modules are larger too). */
const HALVE_ABOVE = 4_000_000;

function luminance(
  image: RasterImage,
  step: number,
): { grey: Uint8Array; width: number; height: number } {
  const width = Math.floor(image.width / step);
  const height = Math.floor(image.height / step);
  const grey = new Uint8Array(width * height);
  const { channels, pixels } = image;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * step * image.width + x * step) * channels;
      grey[y * width + x] =
        ((pixels[at] ?? 0) * 77 + (pixels[at + 1] ?? 0) * 150 + (pixels[at + 2] ?? 0) * 29) >> 8;
    }
  }
  return { grey, width, height };
}

function busyCells(
  grey: Uint8Array,
  width: number,
  height: number,
): { busy: Uint8Array; cols: number; rows: number } {
  const cols = Math.floor(width / CELL);
  const rows = Math.floor(height / CELL);
  const busy = new Uint8Array(cols * rows);
  for (let cy = 0; cy < rows; cy += 1) {
    for (let cx = 0; cx < cols; cx += 1) {
      let along = 0;
      let down = 0;
      let low = 255;
      let high = 0;
      for (let y = cy * CELL; y < cy * CELL + CELL; y += 1) {
        for (let x = cx * CELL; x < cx * CELL + CELL; x += 1) {
          const g = grey[y * width + x] ?? 0;
          if (g < low) low = g;
          if (g > high) high = g;
          if (x + 1 < width && Math.abs((grey[y * width + x + 1] ?? 0) - g) > EDGE) along += 1;
          if (y + 1 < height && Math.abs((grey[(y + 1) * width + x] ?? 0) - g) > EDGE) down += 1;
        }
      }
      const area = CELL * CELL;
      if (high - low > CONTRAST && along > BUSY * area && down > BUSY * area)
        busy[cy * cols + cx] = 1;
    }
  }
  return { busy, cols, rows };
}

/** Axis-aligned quads, in the image's pixels, of square blocks of busy cells. */
export function findQrTexture(image: RasterImage): Quad[] {
  const step = image.width * image.height > HALVE_ABOVE ? 2 : 1;
  const { grey, width, height } = luminance(image, step);
  const { busy, cols, rows } = busyCells(grey, width, height);
  const seen = new Uint8Array(cols * rows);
  const found: Quad[] = [];
  for (let start = 0; start < busy.length; start += 1) {
    if (!busy[start] || seen[start]) continue;
    // Flood the 4-connected block, keeping its bounds and size.
    const stack = [start];
    seen[start] = 1;
    let count = 0;
    let [x0, y0, x1, y1] = [cols, rows, 0, 0];
    while (stack.length > 0) {
      const cell = stack.pop() ?? 0;
      const [x, y] = [cell % cols, Math.floor(cell / cols)];
      count += 1;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
      for (const [nx, ny] of [
        [x + 1, y],
        [x - 1, y],
        [x, y + 1],
        [x, y - 1],
      ] as const) {
        const next = ny * cols + nx;
        if (nx < 0 || ny < 0 || nx >= cols || ny >= rows || !busy[next] || seen[next]) continue;
        seen[next] = 1;
        stack.push(next);
      }
    }
    const [w, h] = [x1 - x0 + 1, y1 - y0 + 1];
    if (Math.min(w, h) < MIN_CELLS || Math.max(w, h) > MAX_ASPECT * Math.min(w, h)) continue;
    if (count < MIN_FILL * w * h) continue;
    const k = CELL * step;
    const [left, top, right, bottom] = [x0 * k, y0 * k, (x1 + 1) * k, (y1 + 1) * k];
    found.push([
      { x: left, y: top },
      { x: right, y: top },
      { x: right, y: bottom },
      { x: left, y: bottom },
    ]);
  }
  return found;
}
