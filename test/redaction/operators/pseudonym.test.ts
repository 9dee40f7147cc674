import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GLOBAL_RULES } from '../../../src/identifiers/catalogue.js';
import { pseudonym } from '../../../src/redaction/operators/pseudonym.js';
import { StandIns } from '../../../src/redaction/stand-ins.js';

const SSN = GLOBAL_RULES.find((r) => r.type === 'US_SSN');

describe('pseudonym operator', () => {
  it('gives a stand-in of the printed shape, the same one for the same value', () => {
    assert.ok(SSN);
    const context = { rule: SSN, maskKeep: 4, standIns: new StandIns() };
    const found = { type: 'US_SSN', value: '123456789' };
    const first = pseudonym.text(found, '123-45-6789', context);
    assert.match(first, /^000-\d{2}-\d{4}$/);
    assert.equal(pseudonym.text(found, '123 45 6789', context), first.replace(/-/g, ' '));
  });

  it('gives a token to a value without a rule', () => {
    const context = { rule: undefined, maskKeep: 4, standIns: new StandIns() };
    assert.equal(pseudonym.text({ type: 'X', value: 'v' }, 'v', context), '[X_1]');
  });
});
