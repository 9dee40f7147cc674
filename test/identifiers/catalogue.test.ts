import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  GLOBAL_TYPES,
  globalTypes,
  registerGlobalRule,
  RuleRegistrationError,
} from '../../src/identifiers/catalogue.js';
import type { GlobalRule } from '../../src/identifiers/global-rule.js';
import { accept, reject } from '../../src/identifiers/validation.js';
import { resolveEntityTypes } from '../../src/services/global-options.js';
import { redactText } from '../../src/services/redact-text.js';
import { CATEGORIES } from '../../src/identifiers/types.js';

describe('the identifier catalogue', () => {
  it('declares every global type of the README once, with a known category', () => {
    const expected = [
      'PASSPORT_MRZ', 'PAYMENT_CARD', 'IBAN', 'US_SSN', 'US_ITIN', 'US_EIN', 'US_ABA_ROUTING',
      'UK_NINO', 'UK_NHS', 'CA_SIN', 'AU_TFN', 'AU_ABN', 'BR_CPF', 'ZA_ID', 'IN_AADHAAR', 'IN_PAN',
      'EU_VAT', 'EMAIL', 'PHONE', 'IP_ADDRESS', 'MAC_ADDRESS', 'CRYPTO_BTC', 'CRYPTO_ETH',
      'SWIFT_BIC', 'DATE_OF_BIRTH',
    ]; // prettier-ignore
    assert.deepEqual(GLOBAL_TYPES.map((t) => t.type).sort(), expected.sort());
    for (const t of GLOBAL_TYPES) assert.ok(CATEGORIES.includes(t.category), t.type);
  });

  it('gives universal types no country list and country types their own', () => {
    for (const t of GLOBAL_TYPES) {
      if (t.country === 'ANY') assert.deepEqual(t.countries, [], t.type);
      else if (t.country !== 'EU') assert.deepEqual(t.countries, [t.country], t.type);
    }
    assert.equal(GLOBAL_TYPES.find((t) => t.type === 'EU_VAT')?.countries.length, 27);
  });

  it('filters case-insensitively by country', () => {
    assert.deepEqual(globalTypes({ country: 'za' }), globalTypes({ country: 'ZA' }));
  });
});

describe('the extension point', () => {
  it('adds a type to the listing and to detection without touching the detector', () => {
    const rule: GlobalRule = {
      type: 'ACME_MEMBER',
      country: 'ANY',
      countries: [],
      category: 'personal',
      validation: 'ACM- and six digits, the last a mod-10 check',
      description: 'Membership number of a club (an example extension)',
      enabledByDefault: true,
      pattern: /\bACM-[0-9]{6}\b/g,
      compact: (raw) => raw.replace(/[^0-9]/g, ''),
      validate: (value) => {
        const sum = Array.from(value.slice(0, 5)).reduce((n, d) => n + Number(d), 0);
        return sum % 10 === Number(value[5])
          ? accept('mod-10 check digit', 0.9)
          : reject('mod-10 check digit', 'checksum');
      },
      pseudonym: (raw) => raw.replace(/[0-9]{6}$/, '000001'),
    };
    registerGlobalRule(rule);
    assert.ok(globalTypes({ category: 'personal' }).some((t) => t.type === 'ACME_MEMBER'));
    const rules = resolveEntityTypes('acme_member', []);
    const result = redactText('Members ACM-123455 and ACM-123456.', {
      rules,
      countries: [],
      mode: 'token',
      maskKeep: 4,
      maxBytes: 1000,
    });
    assert.equal(result.redactedText, 'Members [ACME_MEMBER_1] and ACM-123456.');
    assert.deepEqual(
      result.rejected.map((r) => r.reason),
      ['checksum'],
    );
    assert.throws(() => {
      registerGlobalRule(rule);
    }, RuleRegistrationError);
    assert.throws(() => {
      registerGlobalRule({ ...rule, type: 'acme', pattern: /x/g });
    }, RuleRegistrationError);
    assert.throws(() => {
      registerGlobalRule({ ...rule, type: 'ACME_TWO', pattern: /x/ });
    }, RuleRegistrationError);
  });
});
