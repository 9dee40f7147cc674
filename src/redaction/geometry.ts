/** Quad arithmetic for covering characters: unions along a line, padding, point tests. */
import type { Point, Quad } from '../domain/geometry.js';

const add = (a: Point, b: Point): Point => ({ x: a.x + b.x, y: a.y + b.y });
const sub = (a: Point, b: Point): Point => ({ x: a.x - b.x, y: a.y - b.y });
const scale = (a: Point, k: number): Point => ({ x: a.x * k, y: a.y * k });
const length = (a: Point): number => Math.hypot(a.x, a.y);
const unit = (a: Point): Point => {
  const l = length(a);
  return l === 0 ? { x: 1, y: 0 } : scale(a, 1 / l);
};

/** A cover's margin in text heights: one for both directions, or across and along the line. */
export type SpanPad = number | { readonly across: number; readonly along: number };

/**
 * One quad spanning characters `first..last` of a run (in reading order), padded by `pad`
 * (a fraction of the text height) across the line and along it, but never past the midpoint
 * to the neighbouring characters `before` and `after`, which must stay visible.
 */
export function spanQuad(
  chars: readonly Quad[],
  first: number,
  last: number,
  pad: SpanPad = 0.15,
  /** Where the pixels show the gap after `last` ends (see ink-gap.ts); trusted over the quads. */
  cutAfter: readonly [Point, Point] | null = null,
  /** Where the pixels show the gap before `first` begins; trusted over the quads. */
  cutBefore: readonly [Point, Point] | null = null,
): Quad {
  const start = chars[first];
  const end = chars[last];
  if (!start || !end) throw new Error('span outside the characters');
  const along = unit(sub(end[1], start[0]));
  const across: Point = { x: -along.y, y: along.x };
  const height = Math.max(length(sub(start[3], start[0])), length(sub(end[2], end[1])));
  const { across: acrossPad, along: alongPad } =
    typeof pad === 'number' ? { across: pad, along: pad } : pad;
  const grow = alongPad * height;
  const growAcross = acrossPad * height;
  // Along the line: grow outwards, but stop halfway to a neighbour that stays visible.
  const project = (p: Point) => p.x * along.x + p.y * along.y;
  const left = Math.min(project(start[0]), project(start[3]));
  const right = Math.max(project(end[1]), project(end[2]));
  const before = chars[first - 1];
  const after = chars[last + 1];
  // Nothing before the span must stay visible (a label, a space): lead with a wider margin,
  // since OCR estimates a run's first edge from an average character width.
  const leftRoom = before
    ? (left - Math.max(project(before[1]), project(before[2]))) / 2
    : 2 * grow;
  const rightRoom = after ? (Math.min(project(after[0]), project(after[3])) - right) / 2 : grow;
  const growLeft = cutBefore
    ? left - Math.max(project(cutBefore[0]), project(cutBefore[1]))
    : Math.max(0, Math.min(before ? grow : 2.5 * grow, leftRoom));
  const growRight = cutAfter
    ? Math.min(project(cutAfter[0]), project(cutAfter[1])) - right
    : Math.max(0, Math.min(grow, rightRoom));
  const offsets = [...start, ...end].map((p) => p.x * across.x + p.y * across.y);
  const top = Math.min(...offsets) - growAcross;
  const bottom = Math.max(...offsets) + growAcross;
  const at = (a: number, c: number): Point => add(scale(along, a), scale(across, c));
  return [
    at(left - growLeft, top),
    at(right + growRight, top),
    at(right + growRight, bottom),
    at(left - growLeft, bottom),
  ];
}

/**
 * The covers of a block's rows (spanQuad's, one a row), each stretched along its own line to
 * the block's full extent, and at least `length` from its start: outwards only, across the
 * line unchanged.
 */
export function stretchToBlock(rows: readonly Quad[], length = 0): Quad[] {
  return rows.map((quad) => {
    const along = unit(sub(quad[1], quad[0]));
    const project = (p: Point) => p.x * along.x + p.y * along.y;
    const ends = rows.flatMap((r) => r.map(project));
    const start = Math.min(...ends);
    const end = Math.max(...ends, start + length);
    const to = (p: Point, target: number) => add(p, scale(along, target - project(p)));
    return [to(quad[0], start), to(quad[1], end), to(quad[2], end), to(quad[3], start)] as const;
  });
}

/** Grows a quad outwards from its centre by `margin` units on every side. */
export function expandQuad(quad: Quad, margin: number): Quad {
  const centre = scale(
    quad.reduce<Point>((sum, p) => add(sum, p), { x: 0, y: 0 }),
    1 / 4,
  );
  return quad.map((p) => {
    const direction = unit(sub(p, centre));
    return add(p, scale(direction, margin * Math.SQRT2));
  }) as unknown as Quad;
}

export function scaleQuad(quad: Quad, factor: number): Quad {
  return quad.map((p) => scale(p, factor)) as unknown as Quad;
}

/** Whether a point lies inside a convex quad (either winding). */
export function insideQuad(quad: Quad, x: number, y: number): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i += 1) {
    const a = quad[i] as Point;
    const b = quad[(i + 1) % 4] as Point;
    const cross = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
    if (cross !== 0) {
      if (sign === 0) sign = Math.sign(cross);
      else if (Math.sign(cross) !== sign) return false;
    }
  }
  return true;
}

export function boundsOf(quad: Quad): { x0: number; y0: number; x1: number; y1: number } {
  const xs = quad.map((p) => p.x);
  const ys = quad.map((p) => p.y);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

export type Box = ReturnType<typeof boundsOf>;

/** The smallest box holding both. */
export const unionBox = (a: Box, b: Box): Box => ({
  x0: Math.min(a.x0, b.x0),
  y0: Math.min(a.y0, b.y0),
  x1: Math.max(a.x1, b.x1),
  y1: Math.max(a.y1, b.y1),
});

/** The smallest box holding every quad (at least one). */
export const boundsOfAll = (quads: readonly Quad[]): Box => quads.map(boundsOf).reduce(unionBox);

const boxQuad = (b: Box): Quad => [
  { x: b.x0, y: b.y0 },
  { x: b.x1, y: b.y0 },
  { x: b.x1, y: b.y1 },
  { x: b.x0, y: b.y1 },
];

/** The area the two boxes share (0 when they do not meet). */
export const overlapArea = (p: Box, q: Box): number =>
  Math.max(0, Math.min(p.x1, q.x1) - Math.max(p.x0, q.x0)) *
  Math.max(0, Math.min(p.y1, q.y1) - Math.max(p.y0, q.y0));

/** The area of a box. */
export const boxArea = (b: Box): number => (b.x1 - b.x0) * (b.y1 - b.y0);

/** The boxes share some area (touching edges do not count). */
export const boxesMeet = (p: Box, q: Box): boolean =>
  Math.min(p.x1, q.x1) > Math.max(p.x0, q.x0) && Math.min(p.y1, q.y1) > Math.max(p.y0, q.y0);

/**
 * The largest box inside the cover's box that meets none of the `keep` boxes (text that must
 * stay readable beside it), or null when none is left. Its sides are the cover's own or the
 * edges of the boxes it clears, so those few candidates are tried exhaustively.
 */
export function clipAway(cover: Quad, keep: readonly Quad[]): Quad | null {
  const box = boundsOf(cover);
  const meeting = keep.map(boundsOf).filter((b) => boxesMeet(box, b));
  if (meeting.length === 0) return boxQuad(box);
  if (meeting.length > MAX_CLIPPED) return null;
  const within = (v: number, lo: number, hi: number) => v >= lo && v <= hi;
  const lefts = [box.x0, ...meeting.map((b) => b.x1)].filter((v) => within(v, box.x0, box.x1));
  const rights = [box.x1, ...meeting.map((b) => b.x0)].filter((v) => within(v, box.x0, box.x1));
  const tops = [box.y0, ...meeting.map((b) => b.y1)].filter((v) => within(v, box.y0, box.y1));
  const bottoms = [box.y1, ...meeting.map((b) => b.y0)].filter((v) => within(v, box.y0, box.y1));
  let best: Box | null = null;
  let bestArea = 0;
  for (const x0 of lefts) {
    for (const x1 of rights) {
      for (const y0 of tops) {
        for (const y1 of bottoms) {
          const area = (x1 - x0) * (y1 - y0);
          if (x1 <= x0 || y1 <= y0 || area <= bestArea) continue;
          const candidate = { x0, y0, x1, y1 };
          if (meeting.some((b) => boxesMeet(candidate, b))) continue;
          [best, bestArea] = [candidate, area];
        }
      }
    }
  }
  return best && boxQuad(best);
}

/** Characters beyond which a cover is not cut back (the search grows with their fourth power). */
const MAX_CLIPPED = 16;

const centre = (q: Quad): Point => ({ x: (q[0].x + q[2].x) / 2, y: (q[0].y + q[2].y) / 2 });

/** Whether `next` follows `previous` on the same printed line, whatever the line's direction. */
function sameLine(previous: Quad, next: Quad): boolean {
  const across = sub(previous[3], previous[0]);
  const height = length(across);
  if (height === 0) return false;
  const offset = sub(centre(next), centre(previous));
  const drift = Math.abs((offset.x * across.x + offset.y * across.y) / height);
  return drift < 0.6 * height && length(offset) < 3 * height;
}

/** A value's character boxes split into runs, one per printed line (two when it is broken). */
export function lineRuns(chars: readonly Quad[]): Quad[][] {
  const runs: Quad[][] = [];
  for (const quad of chars) {
    const run = runs.at(-1);
    const previous = run?.at(-1);
    if (run && previous && sameLine(previous, quad)) run.push(quad);
    else runs.push([quad]);
  }
  return runs;
}
