import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundsOf } from '../../../src/redaction/geometry.js';
import {
  AADHAAR_COVERED,
  PAN_COVERED,
  partialCover,
} from '../../../src/redaction/operators/partial-cover.js';
import { assertChangedOnly, patterned } from '../../helpers/raster.js';
import { quad } from '../../helpers/text-layer.js';

/** Twelve digits 10 wide and 20 high, 2 apart, from x = 10. */
const DIGITS = Array.from({ length: 12 }, (_, i) => quad(10 + 12 * i, 10, 10, 20));

describe('partial cover operator', () => {
  it("covers an Aadhaar number's first eight digits and leaves the last four", () => {
    assert.deepEqual(AADHAAR_COVERED, { first: 0, last: 7 });
    const region = partialCover.region('234567890124', DIGITS, AADHAAR_COVERED);
    assert.equal(region.hidden, '23456789');
    assert.deepEqual(region.visible, DIGITS.slice(8));
    const cover = boundsOf(region.quad);
    const ninth = boundsOf(DIGITS[8] as (typeof DIGITS)[number]);
    assert.ok(cover.x0 <= 10, 'from the first digit');
    assert.ok(cover.x1 >= 10 + 12 * 7 + 10, 'to the end of the eighth');
    assert.ok(cover.x1 <= ninth.x0, 'stopping before the ninth');
  });

  it("covers a PAN's characters 2 to 8", () => {
    const region = partialCover.region('ABCDE1234F', DIGITS.slice(0, 10), PAN_COVERED);
    assert.equal(region.hidden, 'CDE1234');
    assert.deepEqual(region.visible, [...DIGITS.slice(0, 2), DIGITS[9]]);
  });

  it('fills the cover black in the pixels, like box, and nothing else', () => {
    const image = patterned(40, 20);
    const out = partialCover.image(image, [quad(4.5, 2.5, 10, 6)]);
    assertChangedOnly(image, out, { x0: 4, y0: 2, x1: 14, y1: 8 }, (pixel) => {
      assert.deepEqual(pixel, [0, 0, 0]);
    });
  });
});
