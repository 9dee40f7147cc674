/**
 * Where a replacement (mask, token, pseudonym) is drawn: on the baseline of the text it
 * replaces, at that text's angle and size, so that the line reads on as before. One placement
 * serves the image form (raster-replace.ts) and the PDF form (pdf-text-replace.ts).
 */
import type { mupdf } from '../documents/mupdf.js';
import type { Point, Quad } from '../domain/geometry.js';

/**
 * How a replaced text's box relates to its font, by where the box came from: a PDF's text layer
 * boxes each glyph from the font's ascender to its descender (measured with MuPDF: 1.374 em for
 * Helvetica, the baseline 0.218 of the box above its bottom); OCR boxes the line's ink with a
 * margin (measured: a 30 px sans line boxed 34 px high, its baseline 6 px above the bottom).
 */
const BOXES = {
  pdf: { emPerHeight: 0.73, baselineRise: 0.218 },
  ocr: { emPerHeight: 0.85, baselineRise: 0.18 },
} as const;

export type BoxSource = keyof typeof BOXES;

/** Narrowest horizontal squeeze before the size itself is reduced to fit. */
const MIN_STRETCH = 0.6;

export interface Placement {
  /** The start of the baseline. */
  readonly origin: Point;
  /** Unit vector along the line. */
  readonly along: Point;
  /** Unit vector across the line, from the top of the text to its bottom. */
  readonly down: Point;
  readonly size: number;
  /** Horizontal scale of the glyphs (1: none), so that a longer replacement fits its place. */
  readonly stretch: number;
}

const sub = (a: Point, b: Point): Point => ({ x: a.x - b.x, y: a.y - b.y });
const length = (p: Point) => Math.hypot(p.x, p.y);
const unit = (p: Point): Point => {
  const l = length(p) || 1;
  return { x: p.x / l, y: p.y / l };
};

/** Advance of `text` in ems of `font`. */
export function advanceInEms(font: mupdf.Font, text: string): number {
  let advance = 0;
  for (const ch of text)
    advance += font.advanceGlyph(font.encodeCharacter(ch.codePointAt(0) ?? 32), 0);
  return advance;
}

/**
 * The placement of a replacement `advance` ems long over the text boxed by `text` (a quad in
 * reading order: top-left, top-right, bottom-right, bottom-left; boxed by `source`), starting
 * where that text starts and ending before the far edge of its `cover`.
 */
export function placeReplacement(
  text: Quad,
  source: BoxSource,
  advance: number,
  cover: Quad,
): Placement {
  const { emPerHeight, baselineRise } = BOXES[source];
  const [topLeft, topRight, , bottomLeft] = text;
  const along = unit(sub(topRight, topLeft));
  const down = unit(sub(bottomLeft, topLeft));
  const height = length(sub(bottomLeft, topLeft));
  const toEnd = sub(cover[1], topLeft);
  const room = Math.max(toEnd.x * along.x + toEnd.y * along.y, length(sub(topRight, topLeft)));
  let size = emPerHeight * height;
  let stretch = 1;
  const fits = 0.97 * room;
  if (advance * size > fits) {
    stretch = fits / (advance * size);
    if (stretch < MIN_STRETCH) {
      size *= stretch / MIN_STRETCH;
      stretch = MIN_STRETCH;
    }
  }
  const rise = baselineRise * height;
  const origin = { x: bottomLeft.x - down.x * rise, y: bottomLeft.y - down.y * rise };
  return { origin, along, down, size, stretch };
}

/**
 * The text matrix of a placement in a y-down space (image pixels, MuPDF's page space): glyph
 * space's x along the line, its y (upwards) against `down`.
 */
export function placementMatrix(p: Placement): [number, number, number, number, number, number] {
  const wide = p.size * p.stretch;
  return [
    wide * p.along.x,
    wide * p.along.y,
    -p.size * p.down.x,
    -p.size * p.down.y,
    p.origin.x,
    p.origin.y,
  ];
}
