import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Quad } from '../../src/ocr/types.js';
import { boundsOf, clipAway } from '../../src/redaction/geometry.js';

const box = (x0: number, y0: number, x1: number, y1: number): Quad => [
  { x: x0, y: y0 },
  { x: x1, y: y0 },
  { x: x1, y: y1 },
  { x: x0, y: y1 },
];

describe('clipAway', () => {
  it('leaves a cover that meets nothing as its box', () => {
    assert.deepEqual(boundsOf(clipAway(box(0, 0, 100, 100), [box(120, 0, 140, 20)]) as Quad), {
      x0: 0,
      y0: 0,
      x1: 100,
      y1: 100,
    });
  });

  it('clears a column of characters with one cut, the one that loses least', () => {
    // Four digits printed sideways, running down past the cover's right edge.
    const digits = [0, 1, 2, 3].map((i) => box(95, 60 + i * 15, 110, 73 + i * 15));
    const cut = boundsOf(clipAway(box(0, 0, 104, 104), digits) as Quad);
    assert.deepEqual(cut, { x0: 0, y0: 0, x1: 95, y1: 104 });
  });

  it('cuts on two sides when characters meet it on two sides', () => {
    const cut = boundsOf(
      clipAway(box(0, 0, 100, 100), [box(-10, 95, 40, 110), box(97, 10, 120, 30)]) as Quad,
    );
    assert.deepEqual(cut, { x0: 0, y0: 0, x1: 97, y1: 95 });
  });

  it('gives null when nothing would be left', () => {
    assert.equal(clipAway(box(10, 10, 20, 20), [box(0, 0, 30, 30)]), null);
  });
});
