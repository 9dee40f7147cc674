/**
 * Joins recognised pieces of one printed line that the detector split (the three groups of an
 * Aadhaar number, a label and its value): same orientation, parallel, on the same baseline,
 * similar height and a small gap. A space is inserted where the gap holds none, positioned in
 * the gap, so that the caller finds "2345 6789 0123" in one line.
 *
 * The detector's pieces may also overlap: "1277 2" and "2644 4553 6835" for one VID, the first
 * box ending inside the second's first group. Such pieces are joined too, the first losing
 * the characters it read where the second begins (the cut glyph it read there is the worse
 * reading), with a space only where the pixels left a gap.
 */
import { toFrame, type ReadingFrame } from '../domain/geometry.js';
import type { FrameChar } from './recognise.js';

export interface RecognisedLine {
  readonly frame: ReadingFrame;
  readonly chars: readonly FrameChar[];
}

export interface MergeSettings {
  /** Largest gap between the pieces, in line heights. */
  readonly maxGap: number;
  /** Largest offset between the pieces' centre lines, in line heights. */
  readonly maxShift: number;
  /** Largest ratio between the pieces' heights. */
  readonly maxHeightRatio: number;
}

const PARALLEL = Math.cos((8 * Math.PI) / 180);
/** Pieces may overlap by this many line heights, when the second reaches past the first. */
const MAX_OVERLAP = 2;
/** Between overlapping pieces, a gap wider than this (line heights) is a space. */
const SPACE_GAP = 0.25;

/** Where `b` sits relative to `a`, or undefined when they are not one line. Gap in page pixels. */
function follows(
  a: RecognisedLine,
  b: RecognisedLine,
  settings: MergeSettings,
): number | undefined {
  const fa = a.frame;
  const fb = b.frame;
  if (fa.orientation !== fb.orientation) return undefined;
  if (fa.rx * fb.rx + fa.ry * fb.ry < PARALLEL) return undefined;
  const small = Math.min(fa.thickness, fb.thickness);
  const large = Math.max(fa.thickness, fb.thickness);
  if (large > settings.maxHeightRatio * small) return undefined;
  const height = (fa.thickness + fb.thickness) / 2;
  const start = toFrame(fa, { x: fb.ox, y: fb.oy });
  const shift = start.down + fb.thickness / 2 - fa.thickness / 2;
  if (Math.abs(shift) > settings.maxShift * height) return undefined;
  const gap = start.along - fa.length;
  if (gap > settings.maxGap * height) return undefined;
  if (gap < -0.25 * height) {
    // Overlapping: the same line only if the second piece carries it further.
    const reachesPast = start.along + fb.length > fa.length + 0.25 * height;
    if (gap < -MAX_OVERLAP * height || start.along <= 0 || !reachesPast) return undefined;
  }
  return gap;
}

/** `b` appended to `a`, in a frame that covers both. */
function join(a: RecognisedLine, b: RecognisedLine): RecognisedLine {
  const fa = a.frame;
  const fb = b.frame;
  const start = toFrame(fa, { x: fb.ox, y: fb.oy });
  const top = Math.min(0, start.down);
  const bottom = Math.max(fa.thickness, start.down + fb.thickness);
  const frame: ReadingFrame = {
    ...fa,
    ox: fa.ox + top * fa.dx,
    oy: fa.oy + top * fa.dy,
    length: Math.max(fa.length, start.along + fb.length),
    thickness: bottom - top,
  };
  const moved = b.chars.map((c) => ({ ...c, from: c.from + start.along, to: c.to + start.along }));
  const overlapping = start.along < fa.length;
  const kept = overlapping ? a.chars.filter((c) => (c.from + c.to) / 2 < start.along) : a.chars;
  const last = kept.at(-1);
  const first = moved[0];
  const chars: FrameChar[] = [...kept];
  const height = (fa.thickness + fb.thickness) / 2;
  const spaced =
    !overlapping ||
    (last !== undefined && first !== undefined && first.from - last.to > SPACE_GAP * height);
  if (
    spaced &&
    last !== undefined &&
    first !== undefined &&
    last.text !== ' ' &&
    first.text !== ' '
  ) {
    const from = Math.min(last.to, first.from);
    chars.push({
      text: ' ',
      from,
      to: Math.max(from, first.from),
      confidence: Math.min(last.confidence, first.confidence),
    });
  }
  chars.push(...moved);
  return { frame, chars };
}

/** Merges split pieces, each into the piece before it in reading order. */
export function mergeLines(
  lines: readonly RecognisedLine[],
  settings: MergeSettings,
): RecognisedLine[] {
  // Reading order within each orientation: position along that orientation's page direction.
  const position = (l: RecognisedLine): number => {
    const o = l.frame.orientation;
    const x = l.frame.ox;
    const y = l.frame.oy;
    return o === 0 ? x : o === 90 ? y : o === 180 ? -x : -y;
  };
  const pending = [...lines].sort((p, q) => position(p) - position(q));
  const result: RecognisedLine[] = [];
  while (pending.length > 0) {
    let line = pending.shift() as RecognisedLine;
    for (;;) {
      let best = -1;
      let bestGap = Infinity;
      pending.forEach((other, index) => {
        const gap = follows(line, other, settings);
        if (gap !== undefined && gap < bestGap) {
          bestGap = gap;
          best = index;
        }
      });
      if (best < 0) break;
      line = join(line, pending.splice(best, 1)[0] as RecognisedLine);
    }
    result.push(line);
  }
  return result;
}
