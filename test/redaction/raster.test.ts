import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Quad } from '../../src/domain/geometry.js';
import type { RasterImage } from '../../src/domain/raster.js';
import { insideQuad } from '../../src/redaction/geometry.js';
import { coverQuads } from '../../src/redaction/raster.js';

const WIDTH = 120;
const HEIGHT = 90;

function white(channels: 3 | 4): RasterImage {
  return {
    width: WIDTH,
    height: HEIGHT,
    channels,
    pixels: Buffer.alloc(WIDTH * HEIGHT * channels, 200),
  };
}

/** A w x h rectangle centred on (cx, cy), turned by `degrees`. */
function turned(cx: number, cy: number, w: number, h: number, degrees: number): Quad {
  const a = (degrees * Math.PI) / 180;
  const corner = (dx: number, dy: number) => ({
    x: cx + dx * Math.cos(a) - dy * Math.sin(a),
    y: cy + dx * Math.sin(a) + dy * Math.cos(a),
  });
  return [
    corner(-w / 2, -h / 2),
    corner(w / 2, -h / 2),
    corner(w / 2, h / 2),
    corner(-w / 2, h / 2),
  ];
}

/**
 * Whether pixel (x, y) is to be covered: it lies within the quad's bounds and its centre or one
 * of its corners is inside (a pixel that meets the quad in a single point is not).
 */
function touches(quad: Quad, x: number, y: number): boolean {
  const xs = quad.map((p) => p.x);
  const ys = quad.map((p) => p.y);
  if (x < Math.floor(Math.min(...xs)) || x > Math.ceil(Math.max(...xs))) return false;
  if (y < Math.floor(Math.min(...ys)) || y > Math.ceil(Math.max(...ys))) return false;
  return [
    [0.5, 0.5],
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ].some(([dx, dy]) => insideQuad(quad, x + (dx ?? 0), y + (dy ?? 0)));
}

const isCovered = (image: RasterImage, x: number, y: number) =>
  image.pixels[(y * WIDTH + x) * image.channels] === 0;

describe('coverQuads', () => {
  it('covers exactly the pixels a turned box touches, and leaves the input untouched', () => {
    const input = white(3);
    for (const degrees of [0, 7, 33, 90, 151]) {
      const quad = turned(60, 45, 70, 14, degrees);
      const out = coverQuads(input, [quad]);
      let covered = 0;
      for (let y = 0; y < HEIGHT; y += 1) {
        for (let x = 0; x < WIDTH; x += 1) {
          assert.equal(isCovered(out, x, y), touches(quad, x, y), `${degrees}° at ${x},${y}`);
          if (isCovered(out, x, y)) covered += 1;
        }
      }
      // The area of the box, plus at most a pixel's rim around it.
      assert.ok(covered >= 70 * 14 && covered <= 72 * 16 + 2 * 86, `${degrees}°: ${covered}`);
    }
    assert.ok(input.pixels.every((v) => v === 200));
  });

  it('makes covered pixels opaque on images with alpha, and clips at the edges', () => {
    const quad = turned(0, 0, 30, 30, 0);
    const out = coverQuads(white(4), [quad]);
    const at = (14 * WIDTH + 14) * 4;
    assert.deepEqual([...out.pixels.subarray(at, at + 4)], [0, 0, 0, 255]);
    assert.equal(isCovered(out, 15, 15), true);
    assert.equal(isCovered(out, 16, 16), false);
    assert.equal(out.pixels.length, WIDTH * HEIGHT * 4);
  });
});
