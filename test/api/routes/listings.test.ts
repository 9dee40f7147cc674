import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../../helpers/databases.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

const [sqlite] = backends();

interface GlobalRow {
  type: string;
  country: string;
  countries: string[];
  category: string;
  validation: string;
  enabled_by_default: boolean;
}

describe('type listings', () => {
  let t: TestApp;
  before(async () => {
    if (!sqlite) throw new Error('no sqlite backend');
    t = await startTestApp(sqlite);
  });
  after(() => t.close());

  const entityTypes = async (query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/global/entity-types${query}` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<{ entity_types: GlobalRow[]; categories: string[] }>();
  };

  it('lists the eleven Indian types with bank_account off by default', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/pii-types' });
    const { types } = res.json<{
      types: { type: string; enabled_by_default: boolean; shape: string }[];
    }>();
    assert.deepEqual(
      types.map((row) => row.type),
      [
        'aadhaar',
        'vid',
        'pan',
        'passport',
        'voter_epic',
        'driving_licence',
        'gstin',
        'ifsc',
        'phone_in',
        'email',
        'bank_account',
      ],
    );
    assert.deepEqual(
      types.filter((row) => !row.enabled_by_default).map((row) => row.type),
      ['bank_account'],
    );
    assert.equal(
      types.find((row) => row.type === 'aadhaar')?.shape,
      'Twelve digits, Verhoeff-validated',
    );
  });

  it('lists the 25 global types with their validation and defaults', async () => {
    const { entity_types: rows } = await entityTypes();
    assert.equal(rows.length, 25);
    assert.equal(new Set(rows.map((row) => row.type)).size, 25);
    const off = rows
      .filter((row) => !row.enabled_by_default)
      .map((row) => row.type)
      .sort();
    assert.deepEqual(off, ['DATE_OF_BIRTH', 'SWIFT_BIC']);
    const iban = rows.find((row) => row.type === 'IBAN');
    assert.deepEqual(iban && [iban.country, iban.validation], [
      'ANY',
      'ISO 7064 mod-97 and country length',
    ]);
    assert.equal(rows.find((row) => row.type === 'UK_NHS')?.country, 'GB');
  });

  it('filters by country: that country and the universal types', async () => {
    const gb = (await entityTypes('?country=gb')).entity_types;
    assert.ok(gb.some((row) => row.type === 'UK_NINO'));
    assert.ok(gb.some((row) => row.type === 'EMAIL'));
    assert.ok(!gb.some((row) => row.type === 'US_SSN'));
    assert.ok(gb.every((row) => row.country === 'GB' || row.country === 'ANY'));
    const de = (await entityTypes('?country=DE')).entity_types.map((row) => row.type);
    assert.ok(de.includes('EU_VAT'));
    const universal = (await entityTypes('?country=ANY')).entity_types;
    assert.ok(universal.length > 0 && universal.every((row) => row.country === 'ANY'));
    const nowhere = (await entityTypes('?country=JP')).entity_types;
    assert.deepEqual(nowhere, universal);
  });

  it('filters by category and combines filters', async () => {
    const { entity_types: financial, categories } = await entityTypes('?category=financial');
    assert.ok(categories.includes('financial'));
    assert.deepEqual(financial.map((row) => row.type).sort(), [
      'IBAN',
      'PAYMENT_CARD',
      'SWIFT_BIC',
      'US_ABA_ROUTING',
    ]);
    const au = (await entityTypes('?country=AU&category=tax_id')).entity_types.map((r) => r.type);
    assert.deepEqual(au.sort(), ['AU_ABN', 'AU_TFN']);
  });
});
