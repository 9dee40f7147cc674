/**
 * Cuts a text line out of the full-resolution page along its reading frame, already turned
 * upright and scaled to the recogniser's height, straight into a normalised BGR tensor.
 * Hand-written because sharp cannot sample a rotated rectangle: one affine map per line,
 * bilinear samples, and a few sub-samples per output pixel when shrinking (area averaging, so
 * that thin strokes of large print are not lost to aliasing).
 */
import type { ReadingFrame } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';

export interface Crop {
  /** Channels-first BGR, values (v / 255 - 0.5) / 0.5, `width` x `height`. */
  readonly data: Float32Array;
  readonly width: number;
  readonly height: number;
  /** Crop pixels per page pixel along the reading direction. */
  readonly scale: number;
}

/**
 * Samples `frame` into `outWidth` x `outHeight` pixels, the text's extent filling
 * `textWidth` columns (the rest is padding of value 0, mid grey as PaddleOCR pads).
 * `maxSubsamples` bounds the area averaging per axis (1: plain bilinear, for a quick look).
 * `into`, when given, receives the crop instead of a new array (3 x outWidth x outHeight long).
 */
export function cropFrame(
  image: RasterImage,
  frame: ReadingFrame,
  textWidth: number,
  outWidth: number,
  outHeight: number,
  maxSubsamples = 4,
  into?: Float32Array,
): Crop {
  const plane = outWidth * outHeight;
  if (into !== undefined && into.length !== plane * 3) throw new Error('crop buffer size');
  const data = into ?? new Float32Array(plane * 3);
  const stepAlong = frame.length / textWidth;
  const stepDown = frame.thickness / outHeight;
  // Sub-samples per axis: bilinear alone is fine down to about 1.5x; beyond, about one per page pixel.
  const nAlong = Math.min(maxSubsamples, Math.max(1, Math.round(stepAlong)));
  const nDown = Math.min(maxSubsamples, Math.max(1, Math.round(stepDown)));
  const norm = 2 / (255 * nAlong * nDown);
  const { width, height, channels, pixels } = image;
  const alpha = channels === 4;
  // Page position of crop column/row offsets, so the inner loop only adds.
  const ax = (stepAlong / nAlong) * frame.rx;
  const ay = (stepAlong / nAlong) * frame.ry;
  const dx = (stepDown / nDown) * frame.dx;
  const dy = (stepDown / nDown) * frame.dy;
  // Sample centres sit at (k + 0.5) sub-steps; bilinear weights are taken between pixel centres (-0.5).
  const x0 = frame.ox + 0.5 * (ax + dx) - 0.5;
  const y0 = frame.oy + 0.5 * (ay + dy) - 0.5;
  if (
    !alpha &&
    nAlong === 1 &&
    nDown === 1 &&
    inside(image, { x0, y0, ax, ay, dx, dy }, textWidth, outHeight)
  ) {
    sampleInside(image, data, { x0, y0, ax, ay, dx, dy }, textWidth, outWidth, outHeight, norm);
    return { data, width: outWidth, height: outHeight, scale: textWidth / frame.length };
  }
  const columns = textWidth * nAlong;
  const sums = new Float64Array(textWidth * 3);
  for (let oy = 0; oy < outHeight; oy += 1) {
    sums.fill(0);
    for (let sj = 0; sj < nDown; sj += 1) {
      const row = oy * nDown + sj;
      let fx = x0 + row * dx;
      let fy = y0 + row * dy;
      for (let col = 0; col < columns; col += 1, fx += ax, fy += ay) {
        const ix = Math.floor(fx);
        const iy = Math.floor(fy);
        const wx = fx - ix;
        const wy = fy - iy;
        let r = 0;
        let g = 0;
        let b = 0;
        if (ix >= 0 && iy >= 0 && ix + 1 < width && iy + 1 < height) {
          // The common case: four taps on the page.
          const k00 = (iy * width + ix) * channels;
          const k01 = k00 + channels;
          const k10 = k00 + width * channels;
          const k11 = k10 + channels;
          let w00 = (1 - wx) * (1 - wy);
          let w01 = wx * (1 - wy);
          let w10 = (1 - wx) * wy;
          let w11 = wx * wy;
          if (alpha) {
            // Composite over white, as the detector's input is flattened: each tap's colour
            // weighs by its opacity, and the transparent share is paper.
            const a00 = w00 * ((pixels[k00 + 3] as number) / 255);
            const a01 = w01 * ((pixels[k01 + 3] as number) / 255);
            const a10 = w10 * ((pixels[k10 + 3] as number) / 255);
            const a11 = w11 * ((pixels[k11 + 3] as number) / 255);
            const paper = 255 * (1 - a00 - a01 - a10 - a11);
            r = g = b = paper;
            w00 = a00;
            w01 = a01;
            w10 = a10;
            w11 = a11;
          }
          r += (pixels[k00] as number) * w00 + (pixels[k01] as number) * w01;
          r += (pixels[k10] as number) * w10 + (pixels[k11] as number) * w11;
          g += (pixels[k00 + 1] as number) * w00 + (pixels[k01 + 1] as number) * w01;
          g += (pixels[k10 + 1] as number) * w10 + (pixels[k11 + 1] as number) * w11;
          b += (pixels[k00 + 2] as number) * w00 + (pixels[k01 + 2] as number) * w01;
          b += (pixels[k10 + 2] as number) * w10 + (pixels[k11 + 2] as number) * w11;
        } else {
          // Tap by tap: off the page reads as white paper; alpha is composited over white,
          // as the detector's input is flattened.
          for (let tap = 0; tap < 4; tap += 1) {
            const x = ix + (tap & 1);
            const y = iy + (tap >> 1);
            const w = ((tap & 1) === 1 ? wx : 1 - wx) * (tap >> 1 === 1 ? wy : 1 - wy);
            if (x < 0 || y < 0 || x >= width || y >= height) {
              r += 255 * w;
              g += 255 * w;
              b += 255 * w;
              continue;
            }
            const k = (y * width + x) * channels;
            const a = alpha ? (pixels[k + 3] as number) / 255 : 1;
            const paper = 255 * (1 - a);
            r += ((pixels[k] as number) * a + paper) * w;
            g += ((pixels[k + 1] as number) * a + paper) * w;
            b += ((pixels[k + 2] as number) * a + paper) * w;
          }
        }
        const o = ((col / nAlong) | 0) * 3;
        sums[o] = (sums[o] as number) + r;
        sums[o + 1] = (sums[o + 1] as number) + g;
        sums[o + 2] = (sums[o + 2] as number) + b;
      }
    }
    const rowStart = oy * outWidth;
    for (let ox = 0; ox < textWidth; ox += 1) {
      const i = rowStart + ox;
      data[i] = (sums[ox * 3 + 2] as number) * norm - 1;
      data[plane + i] = (sums[ox * 3 + 1] as number) * norm - 1;
      data[2 * plane + i] = (sums[ox * 3] as number) * norm - 1;
    }
    clearPadding(data, plane, rowStart, textWidth, outWidth);
  }
  return { data, width: outWidth, height: outHeight, scale: textWidth / frame.length };
}

/** Page position of a crop's first sample, and the steps to the next along a row and down. */
interface SampleGrid {
  readonly x0: number;
  readonly y0: number;
  readonly ax: number;
  readonly ay: number;
  readonly dx: number;
  readonly dy: number;
}

/** Whether every bilinear tap of a columns x rows sample grid falls on the page. */
function inside(image: RasterImage, grid: SampleGrid, columns: number, rows: number): boolean {
  const { x0, y0, ax, ay, dx, dy } = grid;
  // The grid is affine: its extremes are at its corners.
  for (const [c, r] of [
    [0, 0],
    [columns - 1, 0],
    [0, rows - 1],
    [columns - 1, rows - 1],
  ] as const) {
    const x = x0 + c * ax + r * dx;
    const y = y0 + c * ay + r * dy;
    if (!(x >= 0 && y >= 0 && x < image.width - 1 && y < image.height - 1)) return false;
  }
  return true;
}

/**
 * The common case of cropFrame, written out: an opaque page, one bilinear sample per crop pixel
 * (text enlarged to the recogniser's height) and every tap on the page. The same arithmetic
 * without the general loop's sums and checks: a third less time, and the crops are identical.
 */
function sampleInside(
  image: RasterImage,
  data: Float32Array,
  grid: SampleGrid,
  textWidth: number,
  outWidth: number,
  outHeight: number,
  norm: number,
): void {
  const { x0, y0, ax, ay, dx, dy } = grid;
  const { width, channels, pixels } = image;
  const plane = outWidth * outHeight;
  const down = width * channels;
  for (let oy = 0; oy < outHeight; oy += 1) {
    let fx = x0 + oy * dx;
    let fy = y0 + oy * dy;
    const rowStart = oy * outWidth;
    for (let ox = 0; ox < textWidth; ox += 1, fx += ax, fy += ay) {
      const ix = Math.floor(fx);
      const iy = Math.floor(fy);
      const wx = fx - ix;
      const wy = fy - iy;
      const k00 = (iy * width + ix) * channels;
      const k01 = k00 + channels;
      const k10 = k00 + down;
      const k11 = k10 + channels;
      const w00 = (1 - wx) * (1 - wy);
      const w01 = wx * (1 - wy);
      const w10 = (1 - wx) * wy;
      const w11 = wx * wy;
      let r = (pixels[k00] as number) * w00 + (pixels[k01] as number) * w01;
      r += (pixels[k10] as number) * w10 + (pixels[k11] as number) * w11;
      let g = (pixels[k00 + 1] as number) * w00 + (pixels[k01 + 1] as number) * w01;
      g += (pixels[k10 + 1] as number) * w10 + (pixels[k11 + 1] as number) * w11;
      let b = (pixels[k00 + 2] as number) * w00 + (pixels[k01 + 2] as number) * w01;
      b += (pixels[k10 + 2] as number) * w10 + (pixels[k11 + 2] as number) * w11;
      const i = rowStart + ox;
      data[i] = b * norm - 1;
      data[plane + i] = g * norm - 1;
      data[2 * plane + i] = r * norm - 1;
    }
    clearPadding(data, plane, rowStart, textWidth, outWidth);
  }
}

/** Zeroes a crop row's padding columns in each plane (a reused buffer holds the last line's). */
function clearPadding(
  data: Float32Array,
  plane: number,
  rowStart: number,
  textWidth: number,
  outWidth: number,
): void {
  for (let c = 0; c < 3; c += 1) {
    data.fill(0, c * plane + rowStart + textWidth, c * plane + rowStart + outWidth);
  }
}
