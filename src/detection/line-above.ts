/**
 * The line geometrically right above another, in its own reading frame: where a label printed
 * over its value stands (indian.ts, aadhaar.ts). Not the line before it in reading order, which
 * in a form of two columns is the other column's.
 */
import type { TextLine } from '../ocr/types.js';

const sub = (a: { x: number; y: number }, b: { x: number; y: number }) => ({
  x: a.x - b.x,
  y: a.y - b.y,
});
const dot = (a: { x: number; y: number }, b: { x: number; y: number }) => a.x * b.x + a.y * b.y;

/** The nearest line right above line `index` (in its own reading frame) that overlaps it across. */
export function lineAbove(lines: readonly TextLine[], index: number): number | undefined {
  const line = lines[index];
  if (!line) return undefined;
  const [topLeft, topRight, , bottomLeft] = line.quad;
  const along = sub(topRight, topLeft);
  const down = sub(bottomLeft, topLeft);
  const length = Math.hypot(along.x, along.y);
  const height = Math.hypot(down.x, down.y);
  if (length === 0 || height === 0) return undefined;
  const u = { x: along.x / length, y: along.y / length };
  const v = { x: down.x / height, y: down.y / height };
  let best: { index: number; bottom: number } | undefined;
  lines.forEach((other, j) => {
    if (j === index || other.orientation !== line.orientation) return;
    const us = other.quad.map((p) => dot(sub(p, topLeft), u));
    const vs = other.quad.map((p) => dot(sub(p, topLeft), v));
    const bottom = Math.max(...vs);
    const across = Math.min(...us) < length && Math.max(...us) > 0;
    const above = Math.min(...vs) < 0 && bottom <= 0.5 * height && bottom >= -2 * height;
    if (across && above && (!best || bottom > best.bottom)) best = { index: j, bottom };
  });
  return best?.index;
}
