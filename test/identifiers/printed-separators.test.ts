/**
 * Values as their owners print them, through the detector on running text, with generated
 * values: separators inside a value (colon, dot, slash, hyphen), lower case, a label broken over
 * two lines, and a label heading a list. The value's own check still decides: a near miss
 * printed the same way is refused, and no other type takes it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { findGlobalInText, findIndianInText } from '../../src/detection/text-finder.js';
import { GLOBAL_RULES } from '../../src/identifiers/catalogue.js';
import { Rng } from '../fixtures/aadhaar/random.js';
import { makeNegative, makeValue } from '../fixtures/global/values.js';

const ROUNDS = 20;
const compact = (printed: string) => printed.replace(/[^A-Za-z0-9]/g, '');

/** The values found in `text` by the default catalogue, as `TYPE:printed`. */
function found(text: string): string[] {
  const defaults = GLOBAL_RULES.filter((r) => r.enabledByDefault);
  return findGlobalInText(text, defaults, { countries: [] }).findings.map(
    (f) => `${f.type}:${text.slice(f.start, f.end)}`,
  );
}

describe('values printed with their owners separators', () => {
  it('Aadhaar in groups joined by a colon, dot or slash; never mixed, never out of a VID', () => {
    const rng = new Rng(3401);
    for (let i = 0; i < ROUNDS; i += 1) {
      const digits = compact(makeValue('IN_AADHAAR', rng));
      const groups = digits.match(/.{4}/g) ?? [];
      for (const sep of [':', '.', '/']) {
        const printed = groups.join(sep);
        assert.deepEqual(found(`Aadhaar ${printed} on file`), [`IN_AADHAAR:${printed}`]);
      }
      const mixed = `${groups[0]}:${groups[1]}.${groups[2]}`;
      assert.ok(!found(`Aadhaar ${mixed} on file`).some((f) => f.startsWith('IN_AADHAAR')));
      // Sixteen digits in colon groups (a VID shape): no twelve of them are an Aadhaar number.
      const vid = `${groups.join(':')}:${String(1000 + i)}`;
      assert.ok(!found(`VID ${vid}`).some((f) => f.startsWith('IN_AADHAAR')), vid);
      const miss = compact(makeNegative('aadhaar_check', rng)).match(/.{4}/g)?.join(':') ?? '';
      assert.deepEqual(found(`Aadhaar ${miss} on file`), [], miss);
    }
  });

  it('IBAN in hyphenated groups and in lower case', () => {
    const rng = new Rng(3402);
    for (let i = 0; i < ROUNDS; i += 1) {
      const value = compact(makeValue('IBAN', rng));
      const hyphens = value.replace(/(.{4})(?=.)/g, '$1-');
      assert.deepEqual(found(`Pay to ${hyphens} today`), [`IBAN:${hyphens}`]);
      const lower = value.replace(/(.{4})(?=.)/g, '$1 ').toLowerCase();
      assert.deepEqual(found(`iban ${lower} please`), [`IBAN:${lower}`]);
      const miss = compact(makeNegative('iban_check', rng)).replace(/(.{4})(?=.)/g, '$1-');
      assert.ok(!found(`Pay to ${miss} today`).some((f) => f.startsWith('IBAN')), miss);
    }
  });

  it('EU VAT with a dot after its prefix and with the prefix in lower case', () => {
    const rng = new Rng(3403);
    for (let i = 0; i < ROUNDS; i += 1) {
      const value = compact(makeValue('EU_VAT', rng));
      const [prefix, body] = [value.slice(0, 2), value.slice(2)];
      for (const printed of [`${prefix}.${body}`, `${prefix.toLowerCase()}${body}`]) {
        assert.deepEqual(found(`VAT ${printed} ok`), [`EU_VAT:${printed}`]);
      }
      const miss = compact(makeNegative('vat_check', rng));
      const dotted = `${miss.slice(0, 2)}.${miss.slice(2)}`;
      assert.ok(!found(`VAT ${dotted} ok`).some((f) => f.startsWith('EU_VAT')), dotted);
    }
  });

  it('payment cards in groups joined by dots; a Luhn miss or a decimal is none', () => {
    const rng = new Rng(3405);
    for (let i = 0; i < ROUNDS; i += 1) {
      const value = compact(makeValue('PAYMENT_CARD', rng));
      const dotted = value.replace(/(.{4})(?=.)/g, '$1.');
      assert.deepEqual(found(`Card ${dotted} expires 09/29`), [`PAYMENT_CARD:${dotted}`]);
      const miss = compact(makeNegative('card_luhn', rng)).replace(/(.{4})(?=.)/g, '$1.');
      assert.ok(!found(`Card ${miss} expires`).some((f) => f.startsWith('PAYMENT_CARD')), miss);
    }
    assert.deepEqual(
      found('Amex 3782.822463.10005, total 1234.5678 and build 4012.8888.8888.1881.5'),
      ['PAYMENT_CARD:3782.822463.10005'],
    );
  });

  it('a mistyped routing number in a list under a routing label is no other type', () => {
    const rng = new Rng(3404);
    for (let i = 0; i < ROUNDS; i += 1) {
      const valid = makeValue('US_ABA_ROUTING', rng);
      const miss = makeNegative('aba_check', rng);
      for (const text of [
        `Routing numbers ${valid} and ${miss}.`,
        `Routing: ${valid}, ${miss}`,
        `Routing ${miss} or ${valid}`,
      ]) {
        assert.deepEqual(found(text), [`US_ABA_ROUTING:${valid}`], text);
      }
    }
  });
});

describe('phone_in after a label broken over two lines', () => {
  // Landlines whose national number begins 6-9 (a mobile's first digit), by libphonenumber:
  // taken only after a phone label, which here ends one line and goes on in the next.
  const LANDLINES = ['6683212345', '7926123456', '8041234567', '6742345678'];

  it('reads "mobile" at the end of the line above "number +91-..."', () => {
    for (const national of LANDLINES) {
      assert.equal(parsePhoneNumberFromString(`+91${national}`)?.getType(), 'FIXED_LINE');
      for (const printed of [`+91-${national}`, `+91 ${national}`, `0091 ${national}`]) {
        for (const text of [
          `A second mobile\nnumber ${printed} is on file.`,
          `Alternate mobile\nno. ${printed}`,
        ]) {
          const result = findIndianInText(text, ['phone_in']);
          assert.deepEqual(
            result.findings.map((f) => text.slice(f.start, f.end)),
            [printed],
            text,
          );
        }
      }
      // No label at all: a landline is no person's number.
      assert.deepEqual(findIndianInText(`Office ${national}`, ['phone_in']).findings, []);
      assert.deepEqual(
        findIndianInText(`The branch\nnumber +91-${national}`, ['phone_in']).findings,
        [],
      );
    }
  });
});
