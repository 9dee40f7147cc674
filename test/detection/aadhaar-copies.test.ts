import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  copyOnPage,
  fusedWithMark,
  partialCopies,
  pitchOf,
} from '../../src/detection/aadhaar-copies.js';
import { findAadhaarOnPage } from '../../src/detection/aadhaar.js';
import type { Finding } from '../../src/detection/types.js';
import { line, page } from '../helpers/text-layer.js';

const CARD_HEADER = 'Unique Identification Authority of India';

/** The finder's numbers on a card page holding `lines` under its header. */
function cardPage(...texts: string[]) {
  const layer = page([
    line(CARD_HEADER, { y: 10 }),
    ...texts.map((text, i) => line(text, { y: 60 + 50 * i })),
  ]);
  return { layer, found: findAadhaarOnPage(layer).findings };
}

describe('copies of a found Aadhaar number that a mark damaged', () => {
  it('takes a line holding part of a number found elsewhere on the page, and where it starts', () => {
    // The back's copy read whole; the front's first group lost under a pen line.
    const { layer, found } = cardPage('8711 5473 2536', 'L8 1 154732536');
    assert.equal(found.length, 1);
    const copies = partialCopies(layer.lines, found);
    const [copy, ...more] = copies;
    assert.ok(copy);
    assert.equal(more.length, 0);
    assert.equal(copy.line.text, 'L8 1 154732536');
    assert.equal(copy.value, '871154732536');
    // Every digit of the line counts: "8 1 154732536" fits the number from its second digit on,
    // its first digit misread (eleven read allow two).
    assert.equal(copy.digits.map((c) => c.text).join(''), '81154732536');
    assert.equal(copy.offset, 1);
  });

  it('allows one misread digit in five, not more', () => {
    const { layer, found } = cardPage('4558 3919 8040', '99040', '97140');
    const copies = partialCopies(layer.lines, found);
    assert.deepEqual(
      copies.map((c) => [c.line.text, c.offset]),
      [['99040', 7]],
    );
  });

  it('leaves lines of other numbers: pincode, dates, a VID, and the found copy itself', () => {
    const { layer, found } = cardPage(
      '4558 3919 8040',
      'Lucknow - 226010',
      'DOB: 27/02/1987',
      'VID : 9134 5567 2311 0045',
      '4558',
    );
    assert.equal(found.length, 1);
    assert.deepEqual(partialCopies(layer.lines, found), []);
  });

  it('needs a verified number to compare with', () => {
    const unverified = {
      ...(cardPage('4558 3919 8040').found[0] as Finding),
      value: '????39198040',
    };
    const { layer } = cardPage('4558 3919 8040', '39198040');
    assert.deepEqual(partialCopies(layer.lines, [unverified]), []);
  });

  it('reads a second reading as a copy of a known number, give or take one digit in five', () => {
    const value = '871154732536';
    const reading = page([line('VID 9134'), line('8711 5473 2530', { y: 40 })]);
    const copy = copyOnPage(reading, value);
    assert.ok(copy);
    assert.equal(copy.value, value);
    assert.equal(copy.rule, 'copy_of_found_number');
    // The twelve digits' own boxes (characters 10 px wide from x = 10), spaces skipped.
    assert.deepEqual(
      copy.charQuads.map((q) => Math.round((q[0].x - 10) / 10)),
      [0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13],
    );
    assert.equal(copyOnPage(page([line('8711 5473 2000')]), value), null, 'three digits off');
    assert.equal(copyOnPage(page([line('8711 5473 253')]), value), null, 'eleven digits');
  });

  it('tells a line fused with a mark by its boxes taller than their pitch', () => {
    const [clean] = cardPage('4558 3919 8040').found;
    assert.ok(clean);
    assert.equal(Math.round(pitchOf(clean) * 12), 140); // 14 characters 10 px wide
    assert.equal(fusedWithMark(clean), false); // 20 px high at an 11.7 px pitch
    const tall = findAadhaarOnPage(
      page([line(CARD_HEADER, { y: 10 }), line('4558 3919 8040', { y: 60, height: 26 })]),
    ).findings[0];
    assert.ok(tall);
    assert.equal(fusedWithMark(tall), true);
  });
});
