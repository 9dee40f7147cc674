import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Quad } from '../../src/domain/geometry.js';
import type { RasterImage } from '../../src/domain/raster.js';
import { inkGap } from '../../src/redaction/ink-gap.js';

/** White 60x40 page; `ink` boxes [x0, y0, x1, y1) painted black. */
function page(ink: readonly (readonly [number, number, number, number])[]): RasterImage {
  const width = 60;
  const height = 40;
  const pixels = Buffer.alloc(width * height * 3, 255);
  for (const [x0, y0, x1, y1] of ink) {
    for (let y = y0; y < y1; y += 1) {
      for (let x = x0; x < x1; x += 1) pixels.fill(0, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
  }
  return { width, height, channels: 3, pixels };
}

const box = (x0: number, x1: number): Quad => [
  { x: x0, y: 5 },
  { x: x1, y: 5 },
  { x: x1, y: 35 },
  { x: x0, y: 35 },
];

describe('inkGap', () => {
  it('cuts through the blank columns between two glyphs', () => {
    const image = page([
      [10, 8, 24, 32],
      [30, 8, 44, 32],
    ]);
    const cut = inkGap(image, box(8, 30), box(30, 46));
    assert.ok(cut);
    assert.ok(cut[0].x > 24 && cut[0].x < 30, `cut at ${cut[0].x}`);
  });

  it("cuts past the left glyph when the right one's tail reaches under it", () => {
    // Left glyph 10-30; right glyph a stem 36-42 with a hook along the bottom from 26 to 42:
    // no column is blank, and the OCR boundary (28) falls inside the left glyph.
    const image = page([
      [10, 8, 30, 32],
      [36, 8, 42, 32],
      [26, 28, 42, 32],
    ]);
    const cut = inkGap(image, box(8, 28), box(28, 46));
    assert.ok(cut);
    assert.ok(cut[0].x >= 30 && cut[0].x <= 36, `cut at ${cut[0].x}`);
  });

  it('cuts before the tail when the right glyph is the one to cover whole', () => {
    // The same glyphs: the hook of the right glyph starts at 26, under the left glyph.
    const image = page([
      [10, 8, 30, 32],
      [36, 8, 42, 32],
      [26, 28, 42, 32],
    ]);
    const cut = inkGap(image, box(8, 28), box(28, 46), 'right');
    assert.ok(cut);
    assert.ok(cut[0].x <= 26 && cut[0].x > 18, `cut at ${cut[0].x}`);
  });

  it('finds nothing on a blank stretch', () => {
    assert.equal(inkGap(page([]), box(8, 28), box(28, 46)), null);
  });
});
