import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GLOBAL_TYPES, globalTypes } from '../../src/identifiers/catalogue.js';
import { CATEGORIES } from '../../src/identifiers/types.js';

describe('the identifier catalogue', () => {
  it('declares every global type of interface.md once, with a known category', () => {
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
