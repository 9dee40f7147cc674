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
    let at = y * step * image.width * channels;
    const row = y * width;
    for (let x = 0; x < width; x += 1, at += step * channels) {
      const r = pixels[at] as number;
      const g = pixels[at + 1] as number;
      const b = pixels[at + 2] as number;
      grey[row + x] = (r * 77 + g * 150 + b * 29) >> 8;
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
  const area = CELL * CELL;
  for (let cy = 0; cy < rows; cy += 1) {
    for (let cx = 0; cx < cols; cx += 1) {
      const x0 = cx * CELL;
      const y0 = cy * CELL;
      // Contrast first: most cells of a page are plain paper and need no edge count.
      let low = 255;
      let high = 0;
      for (let y = y0; y < y0 + CELL; y += 1) {
        const row = y * width;
        for (let x = x0; x < x0 + CELL; x += 1) {
          const g = grey[row + x] as number;
          if (g < low) low = g;
          if (g > high) high = g;
        }
      }
      if (high - low <= CONTRAST) continue;
      let along = 0;
      let down = 0;
      for (let y = y0; y < y0 + CELL; y += 1) {
        const row = y * width;
        const below = y + 1 < height;
        for (let x = x0; x < x0 + CELL; x += 1) {
          const g = grey[row + x] as number;
          if (x + 1 < width && Math.abs((grey[row + x + 1] as number) - g) > EDGE) along += 1;
          if (below && Math.abs((grey[row + width + x] as number) - g) > EDGE) down += 1;
        }
      }
      if (along > BUSY * area && down > BUSY * area) busy[cy * cols + cx] = 1;
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
  const stack: number[] = [];
  const visit = (next: number): void => {
    if (busy[next] === 1 && seen[next] === 0) {
      seen[next] = 1;
      stack.push(next);
    }
  };
  for (let start = 0; start < busy.length; start += 1) {
    if (!busy[start] || seen[start]) continue;
    // Flood the 4-connected block, keeping its bounds and size.
    stack.push(start);
    seen[start] = 1;
    let count = 0;
    let x0 = cols;
    let y0 = rows;
    let x1 = 0;
    let y1 = 0;
    while (stack.length > 0) {
      const cell = stack.pop() as number;
      const x = cell % cols;
      const y = (cell - x) / cols;
      count += 1;
      if (x < x0) x0 = x;
      if (y < y0) y0 = y;
      if (x > x1) x1 = x;
      if (y > y1) y1 = y;
      if (x + 1 < cols) visit(cell + 1);
      if (x > 0) visit(cell - 1);
      if (y + 1 < rows) visit(cell + cols);
      if (y > 0) visit(cell - cols);
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
