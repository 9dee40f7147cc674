import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Quad } from '../../src/domain/geometry.js';
import { boundsOf, clipAway, stretchToBlock } from '../../src/redaction/geometry.js';

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

describe('stretchToBlock', () => {
  it('stretches each row along its line to the block, never across', () => {
    // An MRZ: row 1 read short of its fillers, row 2 whole and a little further left.
    const [one, two] = stretchToBlock([box(12, 100, 230, 120), box(10, 130, 330, 152)]);
    assert.ok(one && two);
    assert.deepEqual(boundsOf(one), { x0: 10, y0: 100, x1: 330, y1: 120 });
    assert.deepEqual(boundsOf(two), { x0: 10, y0: 130, x1: 330, y1: 152 });
    // Both rows read short of the block's printed length: each reaches it from the block's start.
    const [a, b] = stretchToBlock([box(12, 100, 230, 120), box(10, 130, 330, 152)], 400);
    assert.ok(a && b);
    assert.deepEqual([boundsOf(a).x1, boundsOf(b).x1], [410, 410]);
  });

  it('follows rows printed top to bottom (a page turned a quarter)', () => {
    // Reading down the page: a row's corners run top-left = (x1, y0) round to bottom-left.
    const down = (x0: number, y0: number, x1: number, y1: number): Quad => [
      { x: x1, y: y0 },
      { x: x1, y: y1 },
      { x: x0, y: y1 },
      { x: x0, y: y0 },
    ];
    const [one, two] = stretchToBlock([down(100, 10, 120, 200), down(70, 10, 92, 320)]);
    assert.ok(one && two);
    assert.deepEqual(boundsOf(one), { x0: 100, y0: 10, x1: 120, y1: 320 });
    assert.deepEqual(boundsOf(two), { x0: 70, y0: 10, x1: 92, y1: 320 });
  });
});
