import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findPanOnPage, findUnreadPanOnCard } from '../../src/detection/pan.js';
import { line, page } from '../helpers/text-layer.js';

const values = (text: string) => findPanOnPage(page([line(text)])).findings.map((f) => f.value);

describe('PAN detection', () => {
  it('finds a PAN as a word of its own, with one quad per character', () => {
    const found = findPanOnPage(page([line('PAN: ACUPA7085R, issued')]));
    assert.deepEqual(
      found.findings.map((f) => [f.value, f.charQuads.length, f.rule]),
      [['ACUPA7085R', 10, 'pan_structure']],
    );
    // The quads are those of the characters "ACUPA7085R" (from index 5 of the line).
    assert.equal(found.findings[0]?.charQuads[0]?.[0].x, 10 + 5 * 10);
  });

  it('repairs at most two OCR confusions, by position', () => {
    assert.deepEqual(values('ACUPA7O85R'), ['ACUPA7085R']);
    assert.deepEqual(values('ACUP47O85R'), ['ACUPA7085R']);
    assert.deepEqual(values('AC0P47O85R'), []);
  });

  it('never reports a PAN inside a longer word (GSTIN), a TAN, serial 0000 or an unknown holder code', () => {
    assert.deepEqual(values('GSTIN 27AAPFU0939F1ZV'), []);
    assert.deepEqual(values('TAN DELA12345B'), []);
    assert.deepEqual(values('AAPPV0000K'), []);
    assert.deepEqual(values('AAPEV8261K'), []);
    assert.deepEqual(values('JavaScript INV0012345 2024-01-05'), []);
  });

  it('reads a lower-case PAN in running text', () => {
    assert.deepEqual(values('my pan is acupa7085r.'), ['ACUPA7085R']);
  });

  it('on a PAN card with no PAN read, returns the words that may be it, to cover whole', () => {
    const card = (pan: string) =>
      findUnreadPanOnCard(
        page([line('INCOME TAX DEPARTMENT'), line(pan), line('Date: 03/09/1971 Ref 12')]),
      ).map((quads) => quads.length);
    assert.deepEqual(card('CJPP4592]'), [9]);
    // A PAN that was read is masked by the rule; nothing is suspected then.
    assert.deepEqual(card('CJJPP4592J'), []);
    // Off a PAN card, nothing is suspected.
    assert.deepEqual(
      findUnreadPanOnCard(page([line('Invoice INV0012345'), line('CJPP4592]')])),
      [],
    );
  });
});
