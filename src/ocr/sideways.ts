/**
 * Text that runs up or down the page: a card printed sideways below a letter, a number along a
 * margin. The text detector, trained mostly on lines across the page, splits such a line into
 * pieces or misses it ("9995" found, "5150 5690" not), so the number is never read whole. When
 * the first detection pass finds any vertical box, the page is detected once more turned a
 * quarter; the lines that lie across the turned page are the page's vertical lines, found whole,
 * and replace the vertical and shapeless pieces they overlap. Pages without vertical text pay
 * nothing, and a page with a little pays for the band of it that holds its vertical pieces: the
 * band runs the page's whole height (a line's missing pieces lie along it) and reaches a few
 * line thicknesses to either side (the lines beside them). A PVC card's vertical issue date
 * turns a strip a fifth of the card wide instead of the card (measured: 46 ms of detection);
 * a card printed sideways on an A4 scan about a third of the page.
 */
import sharp from 'sharp';
import type { DetectedBox } from './detect.js';
import { normaliseRect, rectCorners, type RotatedRect } from '../domain/geometry.js';
import { axisOf } from './orientation.js';
import type { RasterImage } from '../domain/raster.js';

/** A line across the turned page is kept when at least this many times longer than thick. */
const SIDEWAYS_ELONGATION = 2.5;

/** The band turned reaches this many of its thickest vertical box's thicknesses beyond them. */
const BAND_MARGIN = 4;

/** A band wider than this share of the page is widened to the whole page. */
const BAND_SHARE = 0.6;

/** Columns `left` to `left + width` of a page, its whole height. */
export interface Band {
  readonly left: number;
  readonly width: number;
}

/**
 * The image (or the band of it) turned a quarter clockwise: pixel (x, y) of the result is
 * (left + y, H - 1 - x) of `image`.
 */
export async function quarterTurn(
  image: RasterImage,
  band: Band = { left: 0, width: image.width },
): Promise<RasterImage> {
  const { width, height, channels } = image;
  let pipeline = sharp(image.pixels, { raw: { width, height, channels } });
  if (band.width !== width) {
    pipeline = pipeline.extract({ left: band.left, top: 0, width: band.width, height });
  }
  const { data, info } = await pipeline.rotate(90).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels, pixels: data };
}

/** The band of the page that holds the vertical boxes and the lines beside them. */
export function sidewaysBand(pageWidth: number, vertical: readonly DetectedBox[]): Band {
  const extents = vertical.map((b) => bounds(b.rect));
  const margin =
    BAND_MARGIN * Math.max(...vertical.map((b) => Math.min(b.rect.width, b.rect.height)));
  const left = Math.max(0, Math.floor(Math.min(...extents.map((e) => e.x0)) - margin));
  const right = Math.min(pageWidth, Math.ceil(Math.max(...extents.map((e) => e.x1)) + margin));
  if (right - left > BAND_SHARE * pageWidth) return { left: 0, width: pageWidth };
  return { left, width: right - left };
}

/**
 * A rectangle found on the quarter-turned image (of the band from `left` on), back on the page
 * (`pageHeight` tall).
 */
export function unturnRect(rect: RotatedRect, pageHeight: number, left = 0): RotatedRect {
  // Turned (x', y') is page (left + y', H - x'); directions turn the same way, without the offset.
  return normaliseRect({
    cx: left + rect.cy,
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
  const vertical = boxes.filter((b) => axisOf(b.rect, elongation) === 'vertical');
  if (vertical.length === 0) return [...boxes];
  const band = sidewaysBand(image.width, vertical);
  const found = await detectTurned(await quarterTurn(image, band));
  const sideways = found
    .filter((b) => axisOf(b.rect, SIDEWAYS_ELONGATION) === 'horizontal')
    .map((b) => ({ ...b, rect: unturnRect(b.rect, image.height, band.left) }));
  if (sideways.length === 0) return [...boxes];
  const kept = boxes.filter(
    (b) =>
      axisOf(b.rect, elongation) === 'horizontal' || !sideways.some((s) => overlap(s.rect, b.rect)),
  );
  return [...kept, ...sideways];
}
