import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findGlobalInText } from '../../src/detection/text-finder.js';
import { GLOBAL_RULES } from '../../src/identifiers/catalogue.js';

const read = (text: string) => {
  const { findings, rejected } = findGlobalInText(text, GLOBAL_RULES);
  return {
    found: findings.map((f) => [f.type, text.slice(f.start, f.end)]),
    rejected: rejected.map((r) => [r.type, r.reason]),
  };
};

describe('global text finder', () => {
  it('leaves a labelled value that fails its own check to no other type', () => {
    // 123456789 fails the routing 3-7-1 check; unlabelled, nine such digits read as an SSN.
    const routing = read('Routing number 123456789 for the account');
    assert.deepEqual(routing.found, []);
    assert.ok(
      routing.rejected.some(([type, reason]) => type === 'US_ABA_ROUTING' && reason === 'checksum'),
    );
    assert.deepEqual(read('Reference 123456789 here').found, [['US_SSN', '123456789']]);
    // A valid routing number is one; the other type's own label still speaks for it.
    assert.deepEqual(read('Routing number 011000015').found, [['US_ABA_ROUTING', '011000015']]);
    assert.deepEqual(read('Routing number 123456789 SSN 123-45-6789').found, [
      ['US_SSN', '123-45-6789'],
    ]);
  });
});
