import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cropFrame } from '../../src/ocr/crop.js';
import { readingFrame } from '../../src/domain/geometry.js';
import { Page } from './fixtures.js';

describe('line crops', () => {
  it('writes the same crop into a reused buffer as into a new one, padding included', () => {
    const page = new Page(400, 80);
    page.text('PAN ABCDE1234F', 10, 50, { size: 28 });
    const image = page.raster();
    const frame = readingFrame({ cx: 140, cy: 40, ux: 1, uy: 0, width: 260, height: 40 }, 0);
    const fresh = cropFrame(image, frame, 300, 320, 48);
    // A buffer left dirty by a longer line before it.
    const dirty = new Float32Array(3 * 320 * 48).fill(0.75);
    const reused = cropFrame(image, frame, 300, 320, 48, 4, dirty);
    assert.equal(reused.data, dirty);
    assert.deepEqual(reused.data, fresh.data);
    // The padding columns (300 to 320) are mid grey, 0, in every plane.
    assert.equal(reused.data[319], 0);
    assert.equal(reused.data[2 * 320 * 48 + 47 * 320 + 310], 0);
    assert.throws(() => cropFrame(image, frame, 300, 320, 48, 4, new Float32Array(10)));
  });

  it('samples an opaque page as the general path does, on the page and over its edge', () => {
    // Coloured print on a tinted page, so that a channel out of place shows.
    const page = new Page(400, 80, '#e0f0ff');
    page.text('GSTIN 27AAPFU0939F1ZV', 10, 50, { size: 26, colour: '#c8232c' });
    const rgba = page.raster();
    // The same pixels without alpha take the written-out path for enlarged crops.
    const rgb = {
      ...rgba,
      channels: 3 as const,
      pixels: Buffer.from(rgba.pixels.filter((_, i) => i % 4 !== 3)),
    };
    const rects = [
      { cx: 150, cy: 40, ux: 1, uy: 0, width: 280, height: 40 },
      { cx: 150, cy: 40, ux: 0.996, uy: 0.087, width: 280, height: 40 },
      // Over the left edge: the general path, with paper beyond the page.
      { cx: 100, cy: 40, ux: 1, uy: 0, width: 280, height: 40 },
    ];
    for (const rect of rects) {
      const frame = readingFrame(rect, 0);
      const a = cropFrame(rgb, frame, 336, 336, 48);
      const b = cropFrame(rgba, frame, 336, 336, 48);
      const worst = a.data.reduce((m, v, i) => Math.max(m, Math.abs(v - (b.data[i] ?? NaN))), 0);
      assert.ok(worst < 1e-6, `differs by ${worst}`);
      // Something was printed there: the crop is not blank.
      assert.ok(a.data.some((v) => v < -0.5));
    }
  });
});
