import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DetectedBox } from '../../src/ocr/detect.js';
import { rectCorners, type RotatedRect } from '../../src/domain/geometry.js';
import {
  quarterTurn,
  sidewaysBand,
  unturnRect,
  withSidewaysLines,
} from '../../src/ocr/sideways.js';
import type { RasterImage } from '../../src/domain/raster.js';

/** A 4 x 3 image whose red channel holds each pixel's index, so a move shows where it went. */
function indexed(): RasterImage {
  const width = 4;
  const height = 3;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i += 1) pixels[i * 3] = i;
  return { width, height, channels: 3, pixels };
}

const red = (image: RasterImage, x: number, y: number) =>
  image.pixels[(y * image.width + x) * image.channels];

const box = (rect: RotatedRect): DetectedBox => ({ rect, score: 0.9 });
const horizontal = (cx: number, cy: number, width: number, height: number): RotatedRect => ({
  cx,
  cy,
  ux: 1,
  uy: 0,
  width,
  height,
});

describe('sideways text', () => {
  it('turns an image a quarter clockwise', async () => {
    const image = indexed();
    const turned = await quarterTurn(image);
    assert.deepEqual([turned.width, turned.height], [3, 4]);
    // Page (x, y) lands at (H - 1 - y, x): the bottom-left pixel becomes the top-left one.
    for (let y = 0; y < 3; y += 1) {
      for (let x = 0; x < 4; x += 1) assert.equal(red(turned, 2 - y, x), red(image, x, y));
    }
  });

  it('maps a line found across the turned page back onto the page, running down it', () => {
    // On a page 300 px tall, turned: a line 200 long and 20 thick centred at (150, 50).
    const back = unturnRect(horizontal(150, 50, 200, 20), 300);
    assert.deepEqual(
      { cx: back.cx, cy: back.cy, width: back.width, height: back.height },
      { cx: 50, cy: 150, width: 20, height: 200 },
    );
    const xs = rectCorners(back).map((p) => Math.round(p.x));
    const ys = rectCorners(back).map((p) => Math.round(p.y));
    assert.deepEqual([Math.min(...xs), Math.max(...xs)], [40, 60]);
    assert.deepEqual([Math.min(...ys), Math.max(...ys)], [50, 250]);
  });

  it('replaces the vertical pieces of a line with the whole line from the turned page', async () => {
    const image: RasterImage = {
      width: 400,
      height: 300,
      channels: 3,
      pixels: Buffer.alloc(360000),
    };
    const across = box(horizontal(200, 20, 300, 20));
    // Two pieces of one line running down the page at x = 50, y 50..250: one tall, one
    // near-square (its axis unknown).
    const pieces = [
      box({ cx: 50, cy: 80, ux: 1, uy: 0, width: 20, height: 60 }),
      box(horizontal(50, 200, 22, 20)),
    ];
    let turnedSize = '';
    const found = await withSidewaysLines(image, [across, ...pieces], 1.5, (turned) => {
      turnedSize = `${turned.width}x${turned.height}`;
      // Across the turned page: the whole line; and a stray near-square blob, which is dropped.
      return Promise.resolve([box(horizontal(150, 50, 200, 20)), box(horizontal(10, 10, 12, 10))]);
    });
    // The band x 0..140: the pieces (x 40..60) and four thicknesses (80 px) to either side.
    assert.equal(turnedSize, '300x140');
    assert.equal(found.length, 2);
    assert.equal(found[0], across, 'lines across the page stay as they were');
    const whole = found[1]?.rect;
    assert.deepEqual([whole?.cx, whole?.cy, whole?.width, whole?.height], [50, 150, 20, 200]);
  });

  it('turns only the band that holds the vertical pieces, and places what it finds on the page', async () => {
    const image = indexed();
    // The band of columns 1..2 of the 4 x 3 image: turned, 3 x 2, pixel (x, y) from (1 + y, 2 - x).
    const turned = await quarterTurn(image, { left: 1, width: 2 });
    assert.deepEqual([turned.width, turned.height], [3, 2]);
    for (let y = 0; y < 2; y += 1) {
      for (let x = 0; x < 3; x += 1) assert.equal(red(turned, x, y), red(image, 1 + y, 2 - x));
    }
    const page: RasterImage = {
      width: 1000,
      height: 300,
      channels: 3,
      pixels: Buffer.alloc(900000),
    };
    // A piece of a line running down the page at x = 600 (20 thick): the band is x 510..690.
    const piece = box({ cx: 600, cy: 80, ux: 1, uy: 0, width: 20, height: 60 });
    assert.deepEqual(sidewaysBand(1000, [piece]), { left: 510, width: 180 });
    let turnedSize = '';
    const found = await withSidewaysLines(page, [piece], 1.5, (t) => {
      turnedSize = `${t.width}x${t.height}`;
      // Across the turned band, 90 px from its top: the whole line, y 50..250 on the page.
      return Promise.resolve([box(horizontal(150, 90, 200, 20))]);
    });
    assert.equal(turnedSize, '300x180');
    const whole = found[0]?.rect;
    assert.deepEqual([whole?.cx, whole?.cy, whole?.width, whole?.height], [600, 150, 20, 200]);
  });

  it('turns the whole page when the vertical pieces spread over most of it', () => {
    const pieces = [100, 500].map((cx) => box({ cx, cy: 80, ux: 1, uy: 0, width: 20, height: 60 }));
    assert.deepEqual(sidewaysBand(700, pieces), { left: 0, width: 700 });
  });

  it('does not detect again when no box runs down the page', async () => {
    const image: RasterImage = { width: 40, height: 30, channels: 3, pixels: Buffer.alloc(3600) };
    const boxes = [box(horizontal(20, 10, 30, 8))];
    const found = await withSidewaysLines(image, boxes, 1.5, () => {
      throw new Error('a second pass was run');
    });
    assert.deepEqual(found, boxes);
  });
});
