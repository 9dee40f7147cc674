import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findIndianOnPage } from '../../src/detection/indian.js';
import { INDIAN_TYPE_NAMES } from '../../src/identifiers/india-rules.js';
import { line, page } from '../helpers/text-layer.js';

const DEFAULTS = INDIAN_TYPE_NAMES.filter((t) => t !== 'bank_account');
const CHAR = 10;

/** Left and right x of a finding's boxes, and the ys of their tops. */
function extent(quads: readonly (readonly { x: number; y: number }[])[]) {
  const xs = quads.flatMap((q) => q.map((p) => p.x));
  return {
    left: Math.min(...xs),
    right: Math.max(...xs),
    tops: [...new Set(quads.map((q) => q[0]?.y))],
  };
}

describe('Indian identifiers on a page', () => {
  it('maps each value to the boxes of its characters, separators left out', () => {
    const text = 'Mobile: +91 98765 43210, PAN ACUPA7085R';
    const { findings } = findIndianOnPage(page([line(text, { x: 10, y: 10 })]), DEFAULTS);
    assert.deepEqual(
      findings.map((f) => [f.type, f.charQuads.length]),
      [
        ['phone_in', 13],
        ['pan', 10],
      ],
    );
    const phone = findings[0];
    assert.ok(phone);
    const start = text.indexOf('+91');
    assert.deepEqual(extent(phone.charQuads), {
      left: 10 + start * CHAR,
      right: 10 + (start + '+91 98765 43210'.length) * CHAR,
      tops: [10],
    });
  });

  it('finds a number broken over two lines, with the boxes on both', () => {
    const { findings } = findIndianOnPage(
      page([
        line('My Aadhaar number is 4918 7362', { y: 10 }),
        line('5102 and it was issued in 2015.', { y: 40 }),
      ]),
      DEFAULTS,
    );
    assert.equal(findings.length, 1);
    const [aadhaar] = findings;
    assert.ok(aadhaar);
    assert.equal(aadhaar.type, 'aadhaar');
    assert.equal(aadhaar.charQuads.length, 12);
    assert.deepEqual(extent(aadhaar.charQuads).tops, [10, 40]);
  });

  it('joins a token broken without a space, and finds a repeated value where it is broken', () => {
    const { findings } = findIndianOnPage(
      page([
        line('GSTIN 27AAPFU0939F1ZV; write to priya.sharma@exam', { y: 10 }),
        line('ple.in or quote GSTIN 27AAPFU09', { y: 40 }),
        line('39F1ZV again.', { y: 70 }),
      ]),
      DEFAULTS,
    );
    assert.deepEqual(
      findings.map((f) => [f.type, f.charQuads.length, extent(f.charQuads).tops]),
      [
        ['gstin', 15, [10]],
        ['email', 23, [10, 40]],
        ['gstin', 15, [40, 70]],
      ],
    );
  });

  it('reports rejected candidates by type and reason only', () => {
    const { findings, rejected } = findIndianOnPage(
      page([line('Aadhaar 4918 7362 5108')]),
      DEFAULTS,
    );
    assert.deepEqual(findings, []);
    assert.deepEqual(rejected, [{ type: 'aadhaar', page: 0, reason: 'checksum_or_first_digit' }]);
  });
});
