/**
 * Where exactly one character ends and the next begins, read from the pixels. OCR character
 * boxes come from the recogniser's time steps and may be a few pixels off; between two digits
 * printed without a space, a few pixels decide whether the eighth digit is fully covered or
 * the ninth is clipped. The cut goes through the lightest band between the two centres.
 */
import type { Point, Quad } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';

const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
const lerp = (a: Point, b: Point, t: number): Point => ({
  x: a.x + (b.x - a.x) * t,
  y: a.y + (b.y - a.y) * t,
});

function grey(image: RasterImage, p: Point): number {
  const x = Math.min(image.width - 1, Math.max(0, Math.round(p.x)));
  const y = Math.min(image.height - 1, Math.max(0, Math.round(p.y)));
  const at = (y * image.width + x) * image.channels;
  return (
    ((image.pixels[at] ?? 255) +
      2 * (image.pixels[at + 1] ?? 255) +
      (image.pixels[at + 2] ?? 255)) /
    4
  );
}

/**
 * The cut between `left` and `right` (consecutive characters of a line, in reading order) as
 * a segment across the line: [top point, bottom point]. Null when the pixels show no contrast.
 * `cover` names the character that is to be covered whole: where the glyphs overlap and no cut
 * can spare both, it is the other one that gives way.
 */
export function inkGap(
  image: RasterImage,
  left: Quad,
  right: Quad,
  cover: 'left' | 'right' = 'left',
): [Point, Point] | null {
  // Centres of the two characters on the top and bottom edges of the line.
  const topFrom = mid(left[0], left[1]);
  const topTo = mid(right[0], right[1]);
  const bottomFrom = mid(left[3], left[2]);
  const bottomTo = mid(right[3], right[2]);
  const span = Math.hypot(topTo.x - topFrom.x, topTo.y - topFrom.y);
  const steps = Math.max(4, Math.round(span * 2));
  const across = 16;
  const profile: number[] = [];
  const columns: number[][] = [];
  let darkest = 255;
  let lightest = 0;
  for (let i = 0; i <= steps; i += 1) {
    const t = i / steps;
    const top = lerp(topFrom, topTo, t);
    const bottom = lerp(bottomFrom, bottomTo, t);
    const samples: number[] = [];
    for (let j = 1; j < across; j += 1) samples.push(grey(image, lerp(top, bottom, j / across)));
    const column = Math.min(...samples);
    columns.push(samples);
    profile.push(column);
    darkest = Math.min(darkest, column);
    lightest = Math.max(lightest, column);
  }
  const at = (i: number): [Point, Point] => {
    const t = i / steps;
    return [lerp(topFrom, topTo, t), lerp(bottomFrom, bottomTo, t)];
  };
  const samples = columns.flat();
  const [inkLevel, paperLevel] = [Math.min(...samples), Math.max(...samples)];
  if (paperLevel - inkLevel < 40) return null;
  // A column is ink-free when its darkest pixel is closer to the paper than to the ink.
  const threshold = (darkest + lightest) / 2;
  // No ink-free column: the glyphs overlap. To cover the right one whole, the cut moves from
  // the valley halfway back to the left glyph's centre, past a tail the right one tucks under it.
  const overlapCut = (valley: number) => at(cover === 'right' ? valley / 2 : valley);
  if (lightest - darkest < 40) {
    return overlapCut(leastInk(columns, (inkLevel + paperLevel) / 2));
  }
  let best: { start: number; end: number } | null = null;
  for (let i = 0; i <= steps;) {
    if ((profile[i] ?? 0) <= threshold) {
      i += 1;
      continue;
    }
    const start = i;
    while (i <= steps && (profile[i] ?? 0) > threshold) i += 1;
    if (!best || i - start > best.end - best.start) best = { start, end: i - 1 };
  }
  return best ? at((best.start + best.end) / 2) : overlapCut(leastInk(columns, threshold));
}

/**
 * No ink-free column: the glyphs overlap along the line (a J's hook reaching under the digit
 * before it), and the OCR boundary then often falls inside the left glyph. The valley is where
 * the fewest samples are ink: where one glyph's edge meets the other's tail. Returns its step.
 */
function leastInk(columns: readonly (readonly number[])[], threshold: number): number {
  const ink = columns.map((c) => c.filter((g) => g <= threshold).length);
  const least = Math.min(...ink);
  const first = ink.indexOf(least);
  let end = first;
  while (end + 1 < ink.length && ink[end + 1] === least) end += 1;
  return (first + end) / 2;
}

/**
 * The gap between a run of characters and the ink beyond its `side` edge (the neighbouring
 * word, when no character box for it is at hand), as a cut across the line: the middle of the
 * first blank band outwards of the run's end character, if ink follows that band within `reach`
 * (image pixels) of the run's edge. Null when nothing is printed that near (the cover may take
 * its full margin) or the pixels show no contrast.
 */
export function neighbourGap(
  image: RasterImage,
  run: readonly Quad[],
  side: 'before' | 'after',
  reach: number,
): [Point, Point] | null {
  const end = side === 'before' ? run[0] : run.at(-1);
  if (!end) return null;
  // From the end character's centre outwards, along the line, `reach` past its edge.
  const [from, to] = side === 'before' ? [end[1], end[0]] : [end[0], end[1]];
  const [fromBottom, toBottom] = side === 'before' ? [end[2], end[3]] : [end[3], end[2]];
  const width = Math.hypot(to.x - from.x, to.y - from.y);
  if (width === 0) return null;
  const stretch = (0.5 * width + reach) / width;
  const topStart = mid(from, to);
  const bottomStart = mid(fromBottom, toBottom);
  const topEnd = lerp(from, to, 0.5 + stretch);
  const bottomEnd = lerp(fromBottom, toBottom, 0.5 + stretch);
  const steps = Math.max(4, Math.round((0.5 * width + reach) * 2));
  const across = 12;
  const at = (i: number): [Point, Point] => [
    lerp(topStart, topEnd, i / steps),
    lerp(bottomStart, bottomEnd, i / steps),
  ];
  // Each column's darkest sample, the top and bottom tenths of the line left out (the lines
  // above and below may reach in).
  const profile: number[] = [];
  for (let i = 0; i <= steps; i += 1) {
    const [top, bottom] = at(i);
    let darkest = 255;
    for (let j = 1; j < across; j += 1) {
      darkest = Math.min(darkest, grey(image, lerp(top, bottom, 0.1 + (0.8 * j) / across)));
    }
    profile.push(darkest);
  }
  const [ink, paper] = [Math.min(...profile), Math.max(...profile)];
  if (paper - ink < 40) return null;
  const blank = (i: number) => (profile[i] ?? 0) > (ink + paper) / 2;
  let i = 0;
  while (i <= steps && !blank(i)) i += 1; // out of the end character's own ink
  const gapStart = i;
  while (i <= steps && blank(i)) i += 1;
  if (i > steps) return null; // blank up to the reach: no neighbour
  const cut = (gapStart + i - 1) / 2;
  // A cut inside the end character (a glyph blank down its middle) would leave half of it.
  return cut * ((0.5 * width + reach) / steps) < 0.5 * width ? null : at(cut);
}

/**
 * Where the words before and after a run begin, within reach of the margin spanQuad gives a
 * run with no character box beside it (up to 2.5 times `alongPad` of the text height): the
 * cuts to pass to spanQuad, so that an OCR'd value's cover stops at the space before the
 * neighbouring word.
 */
export function neighbourCuts(
  raster: RasterImage,
  run: readonly Quad[],
  alongPad: number,
): [[Point, Point] | null, [Point, Point] | null] {
  const first = run[0];
  if (!first) return [null, null];
  const height = Math.hypot(first[3].x - first[0].x, first[3].y - first[0].y);
  const reach = 2.5 * alongPad * height;
  return [neighbourGap(raster, run, 'before', reach), neighbourGap(raster, run, 'after', reach)];
}

/** Where, across the line, a cover's edge should stop: a blank band and ink beyond it. */
function acrossCut(rows: readonly number[], blank: (row: number) => boolean): number | null {
  let i = 0;
  while (i < rows.length && !blank(i)) i += 1; // out of the value's own ink
  const gapStart = i;
  while (i < rows.length && blank(i)) i += 1;
  if (i >= rows.length || gapStart >= rows.length) return null; // no other line reaches in
  return ((rows[gapStart] as number) + (rows[i - 1] as number)) / 2;
}

/**
 * `cover` (a value's cover: its characters' box `text` with a margin across the line) kept to
 * its own line: where the pixels show a blank band past the value's ink and then ink again
 * within the margin (the line above or below printed close), that side of the cover stops in
 * the middle of the band, so the neighbouring line keeps every stroke. The value's own ink is
 * never given up: the search starts inside its box, and a margin with no blank band, or no ink
 * beyond one, is kept as it was.
 */
export function withinOwnLine(image: RasterImage, cover: Quad, text: Quad): Quad {
  const alongVector = { x: cover[1].x - cover[0].x, y: cover[1].y - cover[0].y };
  const span = Math.hypot(alongVector.x, alongVector.y);
  if (span === 0) return cover;
  const along = { x: alongVector.x / span, y: alongVector.y / span };
  const across = { x: -along.y, y: along.x };
  const project = (p: Point, axis: Point) => p.x * axis.x + p.y * axis.y;
  const [coverTop, coverBottom] = [project(cover[0], across), project(cover[3], across)];
  const textAcross = text.map((p) => project(p, across));
  const [textTop, textBottom] = [Math.min(...textAcross), Math.max(...textAcross)];
  const height = textBottom - textTop;
  if (height <= 0) return cover;
  const [start, end] = [project(cover[0], along), project(cover[1], along)];
  const point = (a: number, c: number): Point => ({
    x: along.x * a + across.x * c,
    y: along.y * a + across.y * c,
  });
  const columns = Math.max(8, Math.round(end - start));
  /** The darkest sample of the row at `c` across the line, over the cover's length. */
  const darkest = (c: number) => {
    let min = 255;
    for (let i = 0; i <= columns; i += 1) {
      min = Math.min(min, grey(image, point(start + ((end - start) * i) / columns, c)));
    }
    return min;
  };
  const rowsFrom = (from: number, to: number) => {
    const count = Math.max(2, Math.ceil(Math.abs(to - from)));
    return Array.from({ length: count + 1 }, (_, i) => from + ((to - from) * i) / count);
  };
  // From inside the value's box (a third of its height in) out to the cover's edge.
  const below = rowsFrom(textBottom - height / 3, coverBottom);
  const above = rowsFrom(textTop + height / 3, coverTop);
  const belowInk = below.map(darkest);
  const aboveInk = above.map(darkest);
  const all = [...belowInk, ...aboveInk, darkest((textTop + textBottom) / 2)];
  const [ink, paper] = [Math.min(...all), Math.max(...all)];
  if (paper - ink < 40) return cover;
  const threshold = (ink + paper) / 2;
  const bottom = acrossCut(below, (i) => (belowInk[i] ?? 0) > threshold) ?? coverBottom;
  const top = acrossCut(above, (i) => (aboveInk[i] ?? 0) > threshold) ?? coverTop;
  if (bottom === coverBottom && top === coverTop) return cover;
  return [point(start, top), point(end, top), point(end, bottom), point(start, bottom)];
}
