import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  hasPanShape,
  isValidPan,
  maskPan,
  panHolderType,
} from '../../../src/identifiers/in/pan.js';

describe('PAN rules', () => {
  it('accepts the python-stdnum vectors and rejects serial 0000, unknown holder codes and bad shapes', () => {
    for (const valid of ['ACUPA7085R', 'AAPPV8261K', 'AAKFD7113K'])
      assert.equal(isValidPan(valid), true, valid);
    for (const invalid of ['AAPPV0000K', 'AAPEV8261K', 'AAPPV826IK', 'AAPPV8261', 'aappv8261k']) {
      assert.equal(isValidPan(invalid), false, invalid);
    }
  });

  it('checks the structure only for format_valid', () => {
    assert.equal(hasPanShape('AAPEV0000K'), true);
    assert.equal(hasPanShape('AAPPV826IK'), false);
  });

  it('decodes every official holder code and gives null for K and unknown letters', () => {
    const expected: Record<string, string> = {
      A: 'association_of_persons',
      B: 'body_of_individuals',
      C: 'company',
      F: 'firm',
      G: 'government',
      H: 'hindu_undivided_family',
      J: 'artificial_juridical_person',
      L: 'local_authority',
      P: 'individual',
      T: 'trust',
    };
    for (const [code, label] of Object.entries(expected))
      assert.equal(panHolderType(`AAA${code}V8261K`), label);
    assert.equal(panHolderType('AAAKV8261K'), null);
    assert.equal(panHolderType('AAAEV8261K'), null);
  });

  it('masks the middle seven characters', () => {
    assert.equal(maskPan('ACUPA7085R'), 'ACXXXXXXXR');
  });
});
