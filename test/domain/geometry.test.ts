import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  convexHull,
  frameQuad,
  minAreaRect,
  readingFrame,
  rectCorners,
  scaleRect,
  toFrame,
  type RotatedRect,
} from '../../src/domain/geometry.js';
import type { Orientation, Point } from '../../src/domain/geometry.js';

function near(actual: number, expected: number, tolerance = 1e-6): void {
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${actual} is not within ${tolerance} of ${expected}`,
  );
}

function nearPoint(actual: Point, expected: Point, tolerance = 1e-6): void {
  near(actual.x, expected.x, tolerance);
  near(actual.y, expected.y, tolerance);
}

describe('geometry', () => {
  it('fits the minimum-area rectangle of a turned rectangle', () => {
    const rect: RotatedRect = {
      cx: 50,
      cy: 40,
      ux: Math.cos(0.3),
      uy: Math.sin(0.3),
      width: 60,
      height: 12,
    };
    const corners = rectCorners(rect);
    const inside = [{ x: 50, y: 40 }, ...corners];
    const fitted = minAreaRect(convexHull(inside.flatMap((p) => [p.x, p.y])));
    near(fitted.width, 60);
    near(fitted.height, 12);
    near(fitted.cx, 50);
    near(fitted.cy, 40);
    near(Math.atan2(fitted.uy, fitted.ux), 0.3);
  });

  it('keeps u within 45 degrees of the x axis, so width is the more horizontal side', () => {
    // A box 10 wide and 50 tall, described with u pointing down.
    const points = [0, 0, 10, 0, 10, 50, 0, 50];
    const fitted = minAreaRect(convexHull(points));
    near(fitted.ux, 1);
    near(fitted.uy, 0);
    near(fitted.width, 10);
    near(fitted.height, 50);
  });

  it('puts quad corners in reading order for every orientation', () => {
    const rect: RotatedRect = { cx: 100, cy: 100, ux: 1, uy: 0, width: 80, height: 20 };
    // Box corners on the page: left 60, right 140, top 90, bottom 110.
    const expected: Record<Orientation, Point[]> = {
      0: [
        { x: 60, y: 90 },
        { x: 140, y: 90 },
        { x: 140, y: 110 },
        { x: 60, y: 110 },
      ],
      // Reads top to bottom: the text's top-left is the page's top-right.
      90: [
        { x: 140, y: 90 },
        { x: 140, y: 110 },
        { x: 60, y: 110 },
        { x: 60, y: 90 },
      ],
      180: [
        { x: 140, y: 110 },
        { x: 60, y: 110 },
        { x: 60, y: 90 },
        { x: 140, y: 90 },
      ],
      270: [
        { x: 60, y: 110 },
        { x: 60, y: 90 },
        { x: 140, y: 90 },
        { x: 140, y: 110 },
      ],
    };
    for (const orientation of [0, 90, 180, 270] as const) {
      const frame = readingFrame(rect, orientation);
      const quad = frameQuad(frame, 0, frame.length);
      quad.forEach((p, i) => {
        nearPoint(p, expected[orientation][i] as Point);
      });
    }
  });

  it('maps a span along a vertical line to a quad running down the page', () => {
    const rect: RotatedRect = { cx: 100, cy: 100, ux: 1, uy: 0, width: 20, height: 80 };
    const frame = readingFrame(rect, 90);
    assert.equal(frame.length, 80);
    assert.equal(frame.thickness, 20);
    const [a, b, c, d] = frameQuad(frame, 10, 30);
    nearPoint(a, { x: 110, y: 70 });
    nearPoint(b, { x: 110, y: 90 });
    nearPoint(c, { x: 90, y: 90 });
    nearPoint(d, { x: 90, y: 70 });
    const back = toFrame(frame, { x: 100, y: 80 });
    near(back.along, 20);
    near(back.down, 10);
  });

  it('scales a rectangle from detector pixels to page pixels', () => {
    const scaled = scaleRect({ cx: 10, cy: 10, ux: 1, uy: 0, width: 8, height: 4 }, 2, 3);
    assert.deepEqual(scaled, { cx: 20, cy: 30, ux: 1, uy: 0, width: 16, height: 12 });
  });
});
