/**
 * Tightens a detected box across its text to the band that holds ink. The detector's boxes
 * are 0.9 to 1.7 font sizes thick depending on print size and detection scale (measured), so
 * the same text reached the recogniser at very different densities: too few output steps per
 * character, and CTC drops one of two equal neighbours ("99" read as "9"). Measuring the ink
 * band gives every line the same proportions. Hand-written: a small grey sample of the box,
 * an Otsu threshold (ink.ts), and a row profile.
 */
import { cropFrame } from './crop.js';
import { readingFrame, type ReadingFrame, type RotatedRect } from '../domain/geometry.js';
import { otsuThreshold } from './ink.js';
import type { RasterImage } from '../domain/raster.js';

export interface RefineSettings {
  /** Thickness of the refined box against the ink band (>1 leaves a margin). */
  readonly bandScale: number;
}

const ROWS = 40;
/** The box is searched this much beyond each edge (in thicknesses), in case it was cut short. */
const MARGIN = 0.2;

/** The box, re-centred and re-sized across the text of an axis ('horizontal': the rect's height). */
export function refineRect(
  image: RasterImage,
  rect: RotatedRect,
  vertical: boolean,
  settings: RefineSettings,
): RotatedRect {
  const frame = readingFrame(rect, vertical ? 90 : 0);
  const band = inkBand(image, frame);
  if (band === undefined) return rect;
  const thickness = Math.min(
    frame.thickness * (1 + 2 * MARGIN),
    (band.bottom - band.top) * settings.bandScale,
  );
  // Page shift of the centre along the frame's "down" direction.
  const shift = (band.top + band.bottom) / 2 - frame.thickness / 2;
  return {
    ...rect,
    cx: rect.cx + shift * frame.dx,
    cy: rect.cy + shift * frame.dy,
    width: vertical ? thickness : rect.width,
    height: vertical ? rect.height : thickness,
  };
}

/** The ink's extent across the frame, in page pixels from the frame's top edge. */
function inkBand(
  image: RasterImage,
  frame: ReadingFrame,
): { top: number; bottom: number } | undefined {
  const margin = frame.thickness * MARGIN;
  const search: ReadingFrame = {
    ...frame,
    ox: frame.ox - margin * frame.dx,
    oy: frame.oy - margin * frame.dy,
    thickness: frame.thickness + 2 * margin,
  };
  const columns = Math.max(8, Math.min(160, Math.round((frame.length / frame.thickness) * 12)));
  const crop = cropFrame(image, search, columns, columns, ROWS, 2);
  const plane = columns * ROWS;
  const grey = new Float32Array(plane);
  for (let i = 0; i < plane; i += 1) {
    grey[i] =
      ((crop.data[i] as number) +
        (crop.data[plane + i] as number) +
        (crop.data[2 * plane + i] as number)) /
      3;
  }
  const split = otsuThreshold(grey);
  if (split === undefined) return undefined;
  // Ink is the smaller class: text covers less of a line box than its background.
  let below = 0;
  for (const g of grey) if (g < split) below += 1;
  const inkBelow = below <= plane - below;
  const rowInk = new Float32Array(ROWS);
  for (let r = 0; r < ROWS; r += 1) {
    let count = 0;
    for (let c = 0; c < columns; c += 1) {
      const g = grey[r * columns + c] as number;
      if (inkBelow ? g < split : g >= split) count += 1;
    }
    rowInk[r] = count / columns;
  }
  // Grow from the inkiest row near the middle while rows keep some ink.
  let seed = -1;
  let seedInk = 0;
  for (let r = Math.floor(ROWS * 0.25); r < Math.ceil(ROWS * 0.75); r += 1) {
    if ((rowInk[r] as number) > seedInk) {
      seedInk = rowInk[r] as number;
      seed = r;
    }
  }
  if (seed < 0 || seedInk < 0.05) return undefined;
  const floor = Math.max(0.5 / columns, seedInk * 0.04);
  let top = seed;
  let bottom = seed;
  while (top > 0 && (rowInk[top - 1] as number) >= floor) top -= 1;
  while (bottom < ROWS - 1 && (rowInk[bottom + 1] as number) >= floor) bottom += 1;
  const rowHeight = search.thickness / ROWS;
  return { top: top * rowHeight - margin, bottom: (bottom + 1) * rowHeight - margin };
}
