/**
 * The second look at a card's birth and gender rows (services/aadhaar-field-look.ts) and the
 * readers it relies on. The two documents are generated poor images on which the first reading
 * gets no birth date ("03974" for 03/06/1974) or no gender line: the fields must come back
 * exactly as printed.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { findGender } from '../../src/cards/aadhaar-fields.js';
import { findDateLoosely, titleCaseName } from '../../src/cards/text-values.js';
import { loadSettings } from '../../src/config/settings.js';
import { serviceContext } from '../../src/services/context.js';
import { closeEngines } from '../../src/services/engines.js';
import { extractAadhaarFile } from '../../src/services/extract-aadhaar.js';
import { generateDocument } from '../fixtures/aadhaar/index.js';

describe('Readers for a row known to hold a field', () => {
  it('reads a date whose first or second separator was lost, and nothing looser', () => {
    assert.equal(findDateLoosely('DOB:17/051976')?.iso, '1976-05-17');
    assert.equal(findDateLoosely('D03/061974')?.iso, '1974-06-03');
    assert.equal(findDateLoosely('1705/1976')?.iso, '1976-05-17');
    assert.equal(findDateLoosely('17/05/1976')?.iso, '1976-05-17');
    for (const text of ['17051976', '12345/6789', '0/0997', '31/021990']) {
      assert.equal(findDateLoosely(text), null, text);
    }
  });

  it('takes a gender word glued to a stamp only when asked to', () => {
    assert.equal(findGender('OyMALEANO'), null);
    assert.equal(findGender('OyMALEANO', true)?.value, 'M');
    assert.equal(findGender('RFEMALE')?.value, 'F');
  });

  it('puts back a capital lost in a title-case name, and leaves particles and capitals', () => {
    assert.equal(titleCaseName('Neha joshi'), 'Neha Joshi');
    assert.equal(titleCaseName('Rahul de Souza'), 'Rahul de Souza');
    assert.equal(titleCaseName('RAVI KUMAR'), 'RAVI KUMAR');
    assert.equal(titleCaseName('ravi kumar'), 'ravi kumar');
  });
});

describe('A second look at the birth and gender rows', () => {
  const context = serviceContext(loadSettings({}));
  after(async () => {
    await closeEngines();
  });

  for (const [kind, seed] of [
    ['front-poor', 0x543c1430],
    ['photocopy-poor', 0xc900cc1d],
  ] as const) {
    it(`${kind} ${seed.toString(16)}: birth and gender as printed`, async () => {
      const doc = await generateDocument(kind, seed);
      const holder = doc.truth.holder;
      assert.ok(holder && !holder.yearOnly);
      const extraction = await extractAadhaarFile(
        context,
        { bytes: doc.bytes, filename: doc.filename },
        { includeConfidence: false, reveal: false },
      );
      assert.equal(extraction.fields.date_of_birth, holder.dob.split('/').reverse().join('-'));
      assert.equal(extraction.fields.gender, holder.gender);
    });
  }
});
