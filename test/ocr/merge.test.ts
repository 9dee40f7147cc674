import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readingFrame, type RotatedRect } from '../../src/domain/geometry.js';
import { mergeLines, type RecognisedLine } from '../../src/ocr/merge.js';
import type { Orientation } from '../../src/domain/geometry.js';
import { DEFAULT_MERGE } from '../../src/ocr/options.js';

/** A recognised piece whose box starts at page x (for orientation 0) with evenly spaced chars. */
function piece(
  text: string,
  x: number,
  y: number,
  orientation: Orientation = 0,
  height = 30,
): RecognisedLine {
  const width = text.length * 18;
  const rect: RotatedRect = { cx: x + width / 2, cy: y + height / 2, ux: 1, uy: 0, width, height };
  const frame = readingFrame(rect, orientation);
  const step = frame.length / text.length;
  return {
    frame,
    chars: Array.from(text).map((c, i) => ({
      text: c,
      from: i * step,
      to: (i + 1) * step,
      confidence: 0.9,
    })),
  };
}

const text = (lines: readonly RecognisedLine[]): string[] =>
  lines.map((l) => l.chars.map((c) => c.text).join(''));

describe('merging split pieces of a line', () => {
  it('joins the three groups of a number with spaces, in reading order', () => {
    // 72 pixels a group, 38 between groups: 1.3 line heights.
    const lines = [piece('0124', 260, 100), piece('2345', 40, 100), piece('6789', 150, 101)];
    const merged = mergeLines(lines, DEFAULT_MERGE);
    assert.deepEqual(text(merged), ['2345 6789 0124']);
    const [line] = merged;
    // The inserted spaces sit in the gaps between the groups.
    const spaces = line?.chars.filter((c) => c.text === ' ') ?? [];
    assert.equal(spaces.length, 2);
    assert.ok((spaces[0]?.from ?? 0) >= 72 - 1 && (spaces[0]?.to ?? 0) <= 110 + 1);
    assert.equal(line?.frame.length, 260 + 72 - 40);
  });

  it('keeps apart pieces on other lines, far apart, of another size or orientation', () => {
    assert.equal(
      mergeLines([piece('2345', 40, 100), piece('6789', 150, 140)], DEFAULT_MERGE).length,
      2,
    );
    assert.equal(
      mergeLines([piece('2345', 40, 100), piece('6789', 400, 100)], DEFAULT_MERGE).length,
      2,
    );
    assert.equal(
      mergeLines([piece('2345', 40, 100), piece('6789', 150, 100, 0, 60)], DEFAULT_MERGE).length,
      2,
    );
    assert.equal(
      mergeLines([piece('2345', 40, 100), piece('6789', 150, 100, 180)], DEFAULT_MERGE).length,
      2,
    );
  });

  it('joins pieces of upside-down text in its own reading order', () => {
    // Read at 180 degrees, the piece further right on the page comes first.
    const merged = mergeLines(
      [piece('6789', 40, 100, 180), piece('2345', 150, 100, 180)],
      DEFAULT_MERGE,
    );
    assert.deepEqual(text(merged), ['2345 6789']);
  });

  it('joins overlapping pieces, dropping what the first read where the second begins', () => {
    // "1277 2" ends inside "2644": its cut "2" overlaps the second piece's first group.
    const first = piece('1277 2', 40, 100); // 40..148, the "2" at 130..148
    const second = piece('2644 4553 6835', 130, 100);
    const merged = mergeLines([second, first], DEFAULT_MERGE);
    assert.deepEqual(text(merged), ['1277 2644 4553 6835']);
    // Touching glyphs (no gap in the pixels) get no space.
    assert.deepEqual(
      text(mergeLines([piece('ACUPA70', 40, 100), piece('7085R', 130, 100)], DEFAULT_MERGE)),
      ['ACUPA7085R'],
    );
  });

  it('does not join a piece lying inside another, nor one starting before it', () => {
    assert.equal(
      mergeLines([piece('2345 6789', 40, 100), piece('6789', 130, 100)], DEFAULT_MERGE).length,
      2,
    );
  });
});
