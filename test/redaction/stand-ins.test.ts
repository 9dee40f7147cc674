import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GLOBAL_RULES } from '../../src/identifiers/catalogue.js';
import { StandIns } from '../../src/redaction/stand-ins.js';

const rule = (type: string) => {
  const found = GLOBAL_RULES.find((r) => r.type === type);
  assert.ok(found, type);
  return found;
};

describe('stand-ins of one request', () => {
  it('gives a value one pseudonym, in its printed shape, whatever type it is read as', () => {
    const standIns = new StandIns();
    // 046 454 286 is both an SSN's shape and a Luhn-valid SIN: read as each on two pages.
    const first = standIns.pseudonym(rule('US_SSN'), '046454286', '046-454-286');
    const again = standIns.pseudonym(rule('CA_SIN'), '046454286', '046 454 286');
    assert.match(first, /^000-\d{3}-\d{3}$/); // an SSN from the never-issued area 000
    assert.equal(again, first.replace(/-/g, ' '));
    // Another value gets another stand-in.
    const other = standIns.pseudonym(rule('US_SSN'), '123456789', '123-45-6789');
    assert.notEqual(other.replace(/\D/g, ''), first.replace(/\D/g, ''));
  });

  it('gives a value one token whatever type it is read as, numbered per type', () => {
    const standIns = new StandIns();
    assert.equal(standIns.token('US_SSN', '046454286'), '[US_SSN_1]');
    assert.equal(standIns.token('CA_SIN', '046454286'), '[US_SSN_1]');
    assert.equal(standIns.token('CA_SIN', '130692544'), '[CA_SIN_1]');
    assert.equal(standIns.token('US_SSN', '123456789'), '[US_SSN_2]');
  });
});
