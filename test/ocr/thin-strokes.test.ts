import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { thinStrokeRadius, withoutThinStrokes } from '../../src/ocr/thin-strokes.js';
import type { RasterImage } from '../../src/domain/raster.js';

const WIDTH = 60;
const HEIGHT = 40;

/** White paper with a bold dark bar (8 px wide) and a thin pen line (2 px) across it. */
function markedBar(): RasterImage {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3, 245);
  const paint = (x: number, y: number, v: number) =>
    pixels.fill(v, (y * WIDTH + x) * 3, (y * WIDTH + x) * 3 + 3);
  for (let y = 5; y < 35; y += 1) for (let x = 20; x < 28; x += 1) paint(x, y, 15);
  for (let x = 0; x < WIDTH; x += 1) for (const y of [17, 18]) paint(x, y, 40);
  return { width: WIDTH, height: HEIGHT, channels: 3, pixels };
}

const grey = (image: RasterImage, x: number, y: number) =>
  image.pixels[(y * image.width + x) * 3] as number;

describe('a page box without its thin strokes', () => {
  it('removes a pen line and keeps a bold stroke at its own size', async () => {
    const out = await withoutThinStrokes(markedBar(), { x0: 0, y0: 0, x1: WIDTH, y1: HEIGHT }, 2);
    assert.ok(out);
    assert.equal(out.channels, 3);
    assert.equal(out.width, WIDTH);
    // The pen line is gone on either side of the bar.
    assert.ok(grey(out, 5, 17) > 200 && grey(out, 50, 18) > 200);
    // The bar keeps its edges: dark from x = 20 to 27, light outside.
    const across = Array.from({ length: 12 }, (_, i) => grey(out, 18 + i, 25) < 60);
    assert.deepEqual(across, [false, false, ...Array<boolean>(8).fill(true), false, false]);
  });

  it('cuts the box it is given', async () => {
    const out = await withoutThinStrokes(markedBar(), { x0: 16, y0: 2, x1: 40, y1: 38 }, 1);
    assert.deepEqual([out?.width, out?.height], [24, 36]);
    assert.equal(await withoutThinStrokes(markedBar(), { x0: 0, y0: 0, x1: 6, y1: 40 }, 2), null);
  });

  it('scales its radius with the digits: under half a bold stroke', () => {
    assert.deepEqual([10, 22, 32, 45].map(thinStrokeRadius), [1, 1, 2, 3]);
  });
});
