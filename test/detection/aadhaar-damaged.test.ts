import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findAadhaarOnPage } from '../../src/detection/aadhaar.js';
import { findDamagedAadhaar } from '../../src/detection/aadhaar-damaged.js';
import type { PageText } from '../../src/domain/text-layer.js';
import { line, page } from '../helpers/text-layer.js';

const CARD_HEADER = 'Unique Identification Authority of India';
/** Characters are 10 px wide from x = 10 (text-layer.ts): a char's index from its quad. */
const index = (x: number) => Math.round((x - 10) / 10);

/** Damaged numbers found on `text`'s line, under a card header unless `header` is given. */
function damaged(text: string, header = CARD_HEADER, source: PageText['source'] = 'ocr') {
  const layer = { ...page([line(header, { y: 10 }), line(text, { y: 40 })]), source };
  const found = findAadhaarOnPage(layer).findings;
  return findDamagedAadhaar(layer, found);
}

/** Which characters of the line a finding covers (0-7) and leaves readable (8-11). */
function split(text: string): { covered: string; readable: string } | null {
  const [finding] = damaged(text);
  if (!finding) return null;
  // One quad per character of the value; joined or repeated quads stand for `?`.
  assert.equal(finding.charQuads.length, 12);
  assert.equal(finding.value.length, 12);
  assert.equal(finding.rule, 'unverified');
  const first = index(finding.charQuads[0]?.[0].x ?? 0);
  const lastCovered = index(finding.charQuads[7]?.[0].x ?? 0);
  const firstReadable = index(finding.charQuads[8]?.[0].x ?? 0);
  const lastReadable = index(finding.charQuads[11]?.[0].x ?? 0);
  return {
    covered: text.slice(first, lastCovered + 1),
    readable: text.slice(firstReadable, lastReadable + 1),
  };
}

describe('Aadhaar numbers misread under a mark', () => {
  it('covers every digit that may be one of the first eight, up to the last printed group', () => {
    // A barcode's first bar read as a digit after the last group.
    assert.deepEqual(split('4343 9335 69621'), { covered: '4343 9335', readable: '69621' });
    // A digit lost under a stamp in the second group, or a stroke read as one in the first.
    assert.deepEqual(split('4343 935 6962'), { covered: '4343 935', readable: '6962' });
    assert.deepEqual(split('14343 9335 6962'), { covered: '14343 9335', readable: '6962' });
    assert.equal(damaged('14343 9335 6962')[0]?.value, '?34393356962');
    // A pen line read as a slash between groups whose spaces were lost.
    assert.deepEqual(split('4341/90052604'), { covered: '4341/9005', readable: '2604' });
    assert.deepEqual(split('46924324/2822'), { covered: '46924324', readable: '2822' });
  });

  it('leaves only what cannot be one of the first eight when the groups are lost', () => {
    // Thirteen digits run together: the last four read stay.
    assert.deepEqual(split('1777690854946'), { covered: '177769085', readable: '4946' });
    // Unless the first twelve are a valid number and a 1 follows: a barcode's first bar.
    assert.deepEqual(split('2345678901241'), { covered: '23456789', readable: '01241' });
    assert.deepEqual(split('2345678901231'), { covered: '234567890', readable: '1231' });
    // Eleven: a digit is missing somewhere, so the ninth read may be the eighth printed.
    assert.deepEqual(split('91227042113'), { covered: '91227042', readable: '113' });
  });

  it('leaves what the finder reads, and twelve digits of its shapes, to the finder', () => {
    assert.deepEqual(damaged('2345 6789 0124'), []); // found, valid
    assert.deepEqual(damaged('2345 6789 0123'), []); // found, unverified
    assert.deepEqual(damaged('234567890123'), [], 'a run-together near miss stays readable');
    assert.deepEqual(damaged('2345 67A9 0124'), [], 'an uncertain letter is the finder’s');
  });

  it('never takes other numbers, other pages or text layers', () => {
    for (const text of [
      '4343 9335 69621 1234', // sixteen digits: a VID
      'VID : 7311 2372 0106 173',
      'Enrolment No.: 1234/12345/1234',
      'Mobile: +91 98765 432101',
      '+91 98765 432101',
      '4343 93 Ab 35 69621',
      'DOB: 05/08/1961',
    ]) {
      assert.deepEqual(damaged(text), [], text);
    }
    assert.deepEqual(damaged('4343 9335 69621', 'Tax Invoice'), [], 'not an Aadhaar page');
    assert.deepEqual(damaged('4343 9335 69621', CARD_HEADER, 'pdf'), [], 'PDF text is exact');
  });
});
