import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Quad } from '../../src/domain/geometry.js';
import { boundsOf } from '../../src/redaction/geometry.js';
import { hiddenUnder, qrCover, wordsBeside } from '../../src/redaction/qr-cover.js';

const rect = (x0: number, y0: number, x1: number, y1: number): Quad => [
  { x: x0, y: y0 },
  { x: x1, y: y0 },
  { x: x1, y: y1 },
  { x: x0, y: y1 },
];
const box = (q: Quad) => {
  const b = boundsOf(q);
  return [b.x0, b.y0, b.x1, b.y1].map((v) => Math.round(v * 100) / 100);
};

/** A 100-pixel QR symbol with its top left at (200, 200). */
const symbol = rect(200, 200, 300, 300);

describe('qrCover', () => {
  it('takes a tenth of the side as margin when nothing is printed near', () => {
    assert.deepEqual(box(qrCover(symbol, 1, [], [])), [190, 190, 310, 310]);
  });

  it('returns page units', () => {
    assert.deepEqual(box(qrCover(symbol, 0.5, [], [])), [95, 95, 155, 155]);
  });

  it('narrows the margin to stay off a word printed beside the symbol', () => {
    const word = rect(307, 240, 340, 252); // 7 px right of the symbol
    assert.deepEqual(box(qrCover(symbol, 1, [], [word])), [195, 195, 305, 305]);
    const closer = rect(302, 240, 340, 252);
    assert.deepEqual(box(qrCover(symbol, 1, [], [closer])), [200, 200, 300, 300]);
  });

  it('gives up the words before the characters that must stay readable', () => {
    const keep = rect(303, 240, 340, 252);
    const word = rect(150, 240, 199, 252);
    // No margin clears both; the symbol alone clears what must stay readable.
    assert.deepEqual(box(qrCover(symbol, 1, [keep], [word])), [200, 200, 300, 300]);
  });

  it('cuts the cover back around readable characters inside its box, keeping the symbol hidden', () => {
    const keep = rect(296, 290, 320, 310); // overlaps the symbol's corner
    const cover = boundsOf(qrCover(symbol, 1, [keep], []));
    assert.ok(cover.x1 <= 296 || cover.y1 <= 290, 'the readable characters stay clear');
  });
});

describe('wordsBeside', () => {
  it('drops characters read inside the symbol and grows the others by their ink reach', () => {
    const inside = rect(240, 240, 250, 250);
    const outside = rect(320, 240, 330, 250);
    assert.deepEqual(wordsBeside([inside, outside], symbol).map(box), [[317, 237, 333, 253]]);
  });
});

describe('hiddenUnder', () => {
  it('says a symbol half under other covers needs no cover of its own', () => {
    assert.equal(hiddenUnder(symbol, [rect(200, 200, 300, 250)]), true);
    assert.equal(hiddenUnder(symbol, [rect(200, 200, 300, 240)]), false);
  });
});
