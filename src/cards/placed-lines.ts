/**
 * Text lines placed in their own reading frame, so that "the line below the label" means the
 * same on an upright card, a card turned 90 degrees on a printout and an upside-down photo.
 * `along` runs in the reading direction, `down` from one line to the next.
 */
import type { Orientation, Point, Quad } from '../domain/geometry.js';
import type { PageText, TextChar, TextLine } from '../domain/text-layer.js';

export interface PlacedLine {
  readonly page: number;
  readonly text: string;
  readonly chars: readonly TextChar[];
  readonly confidence: number;
  readonly orientation: Orientation;
  /** The line's quad on its page, as read. */
  readonly quad: Quad;
  /** Extent along the reading direction. */
  readonly start: number;
  readonly end: number;
  /** Extent across it, growing downwards line by line. */
  readonly top: number;
  readonly bottom: number;
  readonly height: number;
}

const DIRECTIONS: Readonly<Record<Orientation, Point>> = {
  0: { x: 1, y: 0 },
  90: { x: 0, y: 1 },
  180: { x: -1, y: 0 },
  270: { x: 0, y: -1 },
};

function place(line: TextLine, page: number, along: Point): PlacedLine {
  const down = { x: -along.y, y: along.x };
  const alongs = line.quad.map((p) => p.x * along.x + p.y * along.y);
  const downs = line.quad.map((p) => p.x * down.x + p.y * down.y);
  const top = Math.min(...downs);
  const bottom = Math.max(...downs);
  return {
    page,
    text: line.text,
    chars: line.chars,
    confidence: line.confidence,
    orientation: line.orientation,
    quad: line.quad,
    start: Math.min(...alongs),
    end: Math.max(...alongs),
    top,
    bottom,
    height: bottom - top,
  };
}

/**
 * The reading direction of a page's lines of one orientation, as the page shows it: a photo
 * tilts a card by a few degrees, and measured along the page's axes the lines of a tilted
 * paragraph overlap and fall out of order. The median direction of the longer lines' top edges
 * (a quad's first two corners run along the text), or the orientation's axis when none.
 */
function readingDirection(lines: readonly TextLine[], orientation: Orientation): Point {
  const axis = DIRECTIONS[orientation];
  const angles = lines
    .filter((l) => l.chars.length >= 6)
    .map((l) => {
      const [a, b] = l.quad;
      // Relative to the axis, so that the median does not wrap around at 180 degrees.
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      return Math.atan2(dy * axis.x - dx * axis.y, dx * axis.x + dy * axis.y);
    })
    .filter((t) => Math.abs(t) < Math.PI / 6)
    .sort((p, q) => p - q);
  const tilt = angles[Math.floor(angles.length / 2)] ?? 0;
  const [c, s] = [Math.cos(tilt), Math.sin(tilt)];
  return { x: axis.x * c - axis.y * s, y: axis.y * c + axis.x * s };
}

/** Every line of the pages, placed; lines of no characters are left out. */
export function placeLines(pages: readonly PageText[]): PlacedLine[] {
  return pages.flatMap((page) => {
    const lines = page.lines.filter((l) => l.text.trim() !== '');
    const directions = new Map<Orientation, Point>();
    for (const o of [0, 90, 180, 270] as const) {
      directions.set(
        o,
        readingDirection(
          lines.filter((l) => l.orientation === o),
          o,
        ),
      );
    }
    return lines.map((l) => place(l, page.page, directions.get(l.orientation) ?? DIRECTIONS[0]));
  });
}

/** The same page, the same reading direction: the only lines whose positions compare. */
export function sameFrame(a: PlacedLine, b: PlacedLine): boolean {
  return a.page === b.page && a.orientation === b.orientation;
}

/** The middle of a line across its reading direction. */
export const centreY = (l: PlacedLine): number => (l.top + l.bottom) / 2;

/** Lines below `anchor` within `maxLines` line heights whose start is near the anchor's, nearest first. */
export function linesBelow(
  lines: readonly PlacedLine[],
  anchor: PlacedLine,
  maxLines: number,
): PlacedLine[] {
  const h = anchor.height;
  return lines
    .filter(
      (l) =>
        l !== anchor &&
        sameFrame(l, anchor) &&
        // By centres: a small label's box may overlap the tall value printed under it.
        centreY(l) >= centreY(anchor) + 0.5 * h &&
        l.top - anchor.bottom <= maxLines * h &&
        l.start < anchor.end &&
        l.end > anchor.start,
    )
    .sort((a, b) => a.top - b.top);
}

/** Lines above `anchor`, within `maxLines` line heights, overlapping it along the line, nearest first. */
export function linesAbove(
  lines: readonly PlacedLine[],
  anchor: PlacedLine,
  maxLines: number,
): PlacedLine[] {
  const h = anchor.height;
  return lines
    .filter(
      (l) =>
        l !== anchor &&
        sameFrame(l, anchor) &&
        l.bottom <= anchor.bottom - 0.5 * h &&
        anchor.top - l.bottom <= maxLines * h &&
        l.start < anchor.end + 2 * h &&
        l.end > anchor.start - 2 * h,
    )
    .sort((a, b) => b.bottom - a.bottom);
}

/** Mean confidence of the characters of `line` that spell a given substring (by index range). */
export function spanConfidence(line: PlacedLine, from: number, to: number): number {
  const chars = line.chars.slice(from, to).filter((c) => c.text.trim() !== '');
  return chars.length === 0
    ? line.confidence
    : chars.reduce((sum, c) => sum + c.confidence, 0) / chars.length;
}

/** The reading direction most of the text runs in (by characters). */
export function dominantOrientation(lines: readonly PlacedLine[]): Orientation {
  const counts = new Map<Orientation, number>();
  for (const l of lines)
    counts.set(l.orientation, (counts.get(l.orientation) ?? 0) + l.chars.length);
  let best: Orientation = 0;
  for (const [o, n] of counts) if (n > (counts.get(best) ?? 0)) best = o;
  return best;
}
