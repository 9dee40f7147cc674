/** From recognised lines in their reading frames to the contract's TextLines, in page order. */
import { frameQuad } from '../domain/geometry.js';
import type { RecognisedLine } from './merge.js';
import type { FrameChar } from './recognise.js';
import type { TextChar, TextLine } from '../domain/text-layer.js';

/** Spaces at either end of a line carry nothing (the recogniser sometimes emits one). */
export function trimSpaces(chars: readonly FrameChar[]): FrameChar[] {
  let start = 0;
  let end = chars.length;
  while (start < end && chars[start]?.text === ' ') start += 1;
  while (end > start && chars[end - 1]?.text === ' ') end -= 1;
  return chars.slice(start, end);
}

function meanConfidence(line: RecognisedLine): number {
  return line.chars.reduce((sum, c) => sum + c.confidence, 0) / Math.max(1, line.chars.length);
}

export function toTextLine(line: RecognisedLine): TextLine {
  const chars: TextChar[] = line.chars.map((c) => ({
    text: c.text,
    quad: frameQuad(line.frame, c.from, c.to),
    confidence: c.confidence,
  }));
  return {
    text: chars.map((c) => c.text).join(''),
    chars,
    quad: frameQuad(line.frame, 0, line.frame.length),
    confidence: meanConfidence(line),
    orientation: line.frame.orientation,
  };
}

/** Top to bottom, then left to right among lines whose centres are within half a line height. */
export function sortLines(lines: TextLine[]): TextLine[] {
  const centre = (l: TextLine): { x: number; y: number; h: number } => {
    const [a, b, c, d] = l.quad;
    const h = Math.min(Math.hypot(d.x - a.x, d.y - a.y), Math.hypot(b.x - a.x, b.y - a.y));
    return { x: (a.x + b.x + c.x + d.x) / 4, y: (a.y + b.y + c.y + d.y) / 4, h };
  };
  const keyed = lines.map((line) => ({ line, ...centre(line) }));
  keyed.sort((p, q) => p.y - q.y || p.x - q.x);
  for (let i = 1; i < keyed.length; i += 1) {
    for (let j = i; j > 0; j -= 1) {
      const p = keyed[j - 1] as (typeof keyed)[number];
      const q = keyed[j] as (typeof keyed)[number];
      if (Math.abs(q.y - p.y) < Math.min(p.h, q.h) / 2 && q.x < p.x) {
        keyed[j - 1] = q;
        keyed[j] = p;
      } else break;
    }
  }
  return keyed.map((k) => k.line);
}
