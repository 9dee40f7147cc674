/**
 * Text that runs up or down the page: a card printed sideways below a letter, a number along a
 * margin. The text detector, trained mostly on lines across the page, splits such a line into
 * pieces or misses it ("9995" found, "5150 5690" not), so the number is never read whole. When
 * the first detection pass finds any vertical box, the page is detected once more turned a
 * quarter; the lines that lie across the turned page are the page's vertical lines, found whole,
 * and replace the vertical and shapeless pieces they overlap. Pages without vertical text pay
 * nothing.
 */
import sharp from 'sharp';
import type { DetectedBox } from './detect.js';
import { normaliseRect, rectCorners, type RotatedRect } from '../domain/geometry.js';
import { axisOf } from './orientation.js';
import type { RasterImage } from '../domain/raster.js';

/** A line across the turned page is kept when at least this many times longer than thick. */
const SIDEWAYS_ELONGATION = 2.5;

/** The image turned a quarter clockwise: pixel (x, y) of the result is (y, H - 1 - x) of `image`. */
export async function quarterTurn(image: RasterImage): Promise<RasterImage> {
  const { width, height, channels } = image;
  const { data, info } = await sharp(image.pixels, { raw: { width, height, channels } })
    .rotate(90)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels, pixels: data };
}

/** A rectangle found on the quarter-turned image, back on the page (`pageHeight` tall). */
export function unturnRect(rect: RotatedRect, pageHeight: number): RotatedRect {
  // Turned (x', y') is page (y', H - x'); directions turn the same way, without the offset.
  return normaliseRect({
    cx: rect.cy,
    cy: pageHeight - rect.cx,
    ux: rect.uy,
    uy: -rect.ux,
    width: rect.width,
    height: rect.height,
  });
}

function bounds(rect: RotatedRect) {
  const corners = rectCorners(rect);
  const xs = corners.map((p) => p.x);
  const ys = corners.map((p) => p.y);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

function overlap(a: RotatedRect, b: RotatedRect): boolean {
  const p = bounds(a);
  const q = bounds(b);
  return p.x0 < q.x1 && q.x0 < p.x1 && p.y0 < q.y1 && q.y0 < p.y1;
}

/**
 * The boxes of the first pass with the vertical lines found whole on the turned page in place
 * of the pieces they overlap; the first pass's boxes unchanged when none is vertical.
 */
export async function withSidewaysLines(
  image: RasterImage,
  boxes: readonly DetectedBox[],
  elongation: number,
  detectTurned: (turned: RasterImage) => Promise<readonly DetectedBox[]>,
): Promise<DetectedBox[]> {
  if (!boxes.some((b) => axisOf(b.rect, elongation) === 'vertical')) return [...boxes];
  const found = await detectTurned(await quarterTurn(image));
  const sideways = found
    .filter((b) => axisOf(b.rect, SIDEWAYS_ELONGATION) === 'horizontal')
    .map((b) => ({ ...b, rect: unturnRect(b.rect, image.height) }));
  if (sideways.length === 0) return [...boxes];
  const kept = boxes.filter(
    (b) =>
      axisOf(b.rect, elongation) === 'horizontal' || !sideways.some((s) => overlap(s.rect, b.rect)),
  );
  return [...kept, ...sideways];
}
