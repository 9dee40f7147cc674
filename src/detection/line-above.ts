/**
 * The lines geometrically around another, in its own reading frame: where a label printed over
 * its value stands (lineAbove; indian.ts, aadhaar.ts), the cell to its left in a table row
 * (lineLeft), and the header of its table column (columnHeader). Not the line before it in
 * reading order, which in a form of two columns is the other column's.
 */
import type { TextLine } from '../domain/text-layer.js';

const sub = (a: { x: number; y: number }, b: { x: number; y: number }) => ({
  x: a.x - b.x,
  y: a.y - b.y,
});
const dot = (a: { x: number; y: number }, b: { x: number; y: number }) => a.x * b.x + a.y * b.y;

interface Frame {
  readonly line: TextLine;
  readonly length: number;
  readonly height: number;
  /** Another line's corners along and across this line, from its top-left corner. */
  readonly along: (other: TextLine) => number[];
  readonly across: (other: TextLine) => number[];
}

function frameOf(line: TextLine | undefined): Frame | undefined {
  if (!line) return undefined;
  const [topLeft, topRight, , bottomLeft] = line.quad;
  const along = sub(topRight, topLeft);
  const down = sub(bottomLeft, topLeft);
  const length = Math.hypot(along.x, along.y);
  const height = Math.hypot(down.x, down.y);
  if (length === 0 || height === 0) return undefined;
  const u = { x: along.x / length, y: along.y / length };
  const v = { x: down.x / height, y: down.y / height };
  return {
    line,
    length,
    height,
    along: (other) => other.quad.map((p) => dot(sub(p, topLeft), u)),
    across: (other) => other.quad.map((p) => dot(sub(p, topLeft), v)),
  };
}

/** The nearest line right above line `index` (in its own reading frame) that overlaps it across. */
export function lineAbove(lines: readonly TextLine[], index: number): number | undefined {
  const frame = frameOf(lines[index]);
  if (!frame) return undefined;
  const { line, length, height } = frame;
  let best: { index: number; bottom: number } | undefined;
  lines.forEach((other, j) => {
    if (j === index || other.orientation !== line.orientation) return;
    const us = frame.along(other);
    const vs = frame.across(other);
    const bottom = Math.max(...vs);
    const across = Math.min(...us) < length && Math.max(...us) > 0;
    const above = Math.min(...vs) < 0 && bottom <= 0.5 * height && bottom >= -2 * height;
    if (across && above && (!best || bottom > best.bottom)) best = { index: j, bottom };
  });
  return best?.index;
}

/** How far left of a value its row's label may stand, in line heights (a table's label column). */
const LEFT_REACH = 30;

/** The nearest line on the same row as line `index`, wholly to its left (a table's label cell). */
export function lineLeft(lines: readonly TextLine[], index: number): number | undefined {
  const frame = frameOf(lines[index]);
  if (!frame) return undefined;
  const { line, height } = frame;
  let best: { index: number; right: number } | undefined;
  lines.forEach((other, j) => {
    if (j === index || other.orientation !== line.orientation) return;
    const us = frame.along(other);
    const vs = frame.across(other);
    const overlap = Math.min(height, Math.max(...vs)) - Math.max(0, Math.min(...vs));
    const right = Math.max(...us);
    const left = right <= 0.5 * height && right >= -LEFT_REACH * height;
    if (overlap >= 0.5 * height && left && (!best || right > best.right))
      best = { index: j, right };
  });
  return best?.index;
}

/** How many rows a table column may have between a cell and its header. */
const MAX_ROWS = 80;

/**
 * The header of line `index`'s table column: the first line above it, going up cell by cell,
 * that is not itself a cell like it (`isCell`: a number, for account columns). None when the
 * line right above is no cell, since that line is then the label lineAbove already gives.
 */
export function columnHeader(
  lines: readonly TextLine[],
  index: number,
  isCell: (text: string) => boolean,
): number | undefined {
  let at = lineAbove(lines, index);
  if (at === undefined || !isCell(lines[at]?.text ?? '')) return undefined;
  for (let rows = 0; at !== undefined && rows < MAX_ROWS; rows += 1) {
    if (!isCell(lines[at]?.text ?? '')) return at;
    at = lineAbove(lines, at);
  }
  return undefined;
}
