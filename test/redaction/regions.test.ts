import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Quad } from '../../src/domain/geometry.js';
import { addRegion, type Region } from '../../src/redaction/regions.js';

/** An axis-aligned quad from its left, top, right and bottom edges. */
const rect = (x0: number, y0: number, x1: number, y1: number): Quad => [
  { x: x0, y: y0 },
  { x: x1, y: y0 },
  { x: x1, y: y1 },
  { x: x0, y: y1 },
];
const padded = (q: Quad): Quad => {
  const [a, , c] = q;
  return rect(a.x - 4, a.y - 4, c.x + 4, c.y + 4);
};

describe('addRegion', () => {
  it('makes one region of two readings of one value, their covers joined', () => {
    const regions: Region[] = [];
    const pdf = rect(100, 50, 220, 64);
    const ocr = rect(104, 51, 226, 66); // boxed a little to the right by OCR
    addRegion(regions, { cores: [pdf], quads: [padded(pdf)], hidden: '23456789' });
    addRegion(regions, { cores: [ocr], quads: [padded(ocr)], hidden: '23456789' });
    const [only, ...others] = regions;
    assert.ok(only);
    assert.equal(others.length, 0);
    assert.deepEqual(only.quads, [padded(pdf), padded(ocr)]);
    assert.deepEqual(only.hidden, ['23456789', '23456789']);
  });

  it('keeps two values on neighbouring lines apart although their padded covers meet', () => {
    const regions: Region[] = [];
    const above = rect(100, 50, 220, 64);
    const below = rect(100, 66, 220, 80);
    addRegion(regions, { cores: [above], quads: [padded(above)] });
    addRegion(regions, { cores: [below], quads: [padded(below)] });
    assert.equal(regions.length, 2);
  });

  it('counts a region unverified only when every reading of it failed validation', () => {
    const regions: Region[] = [];
    const value = rect(0, 0, 100, 10);
    addRegion(regions, { cores: [value], quads: [value], unverified: true });
    assert.equal(regions[0]?.unverified, true);
    addRegion(regions, { cores: [value], quads: [value], unverified: false });
    const [only, ...others] = regions;
    assert.ok(only);
    assert.equal(others.length, 0);
    assert.equal(only.unverified, false);
  });

  it('takes a value inside a longer one (a PAN inside a GSTIN) as the same region', () => {
    const regions: Region[] = [];
    addRegion(regions, { cores: [rect(0, 0, 150, 10)], quads: [rect(0, 0, 150, 10)] });
    addRegion(regions, { cores: [rect(20, 0, 120, 10)], quads: [rect(20, 0, 120, 10)] });
    assert.equal(regions.length, 1);
  });
});
