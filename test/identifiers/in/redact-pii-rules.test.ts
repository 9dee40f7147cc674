/**
 * The Indian validators on vectors from each number's published format (valid values and
 * near-misses, recomputed independently of the libraries), then the finder on running
 * text with the separators and line breaks people use.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findIndianInText } from '../../../src/detection/text-finder.js';
import { INDIAN_TYPES } from '../../../src/identifiers/in/redact-pii-types.js';
import {
  indianRule,
  INDIAN_TYPE_NAMES,
  type IndianType,
} from '../../../src/identifiers/in/redact-pii-rules.js';

function verdicts(type: IndianType, raws: readonly string[]): boolean[] {
  const rule = indianRule(type);
  return raws.map((raw) => rule.validate(rule.compact(raw)).valid);
}

const VECTORS: Record<IndianType, { valid: string[]; invalid: string[] }> = {
  aadhaar: {
    valid: ['2341 2341 2346', '4918 7362 5102', '7234-5098-7614', '876543210988'],
    invalid: [
      '4918 7362 5108',
      '4918 7362 5120',
      '1234 5678 9010',
      '0123 4567 8906',
      '4918 7362 510',
    ],
  },
  vid: {
    // The checksum decides (IN.13): a leading 1 that stdnum refuses is a VID, less likely.
    valid: [
      '2341 2341 2341 2341',
      '9134 5678 9012 3450',
      '9817 2635 4019 2835',
      '1234 5678 9012 3455',
    ],
    invalid: ['9134 5678 9012 3451', '9134 5678 9012 3540', '4111 1111 1111 1111'],
  },
  pan: {
    valid: ['ACUPA7085R', 'AAPPV8261K', 'AAKFD7113K', 'ABCPE1234F'],
    invalid: ['ABCXE1234F', 'ABCPE0000F', 'ABCPE12345', 'ABCEE1234F', 'ABCP1234F', 'DELA12345B'],
  },
  passport: {
    valid: ['A1234567', 'N0000000'],
    invalid: ['A123456', 'AB1234567', '1234567A'],
  },
  voter_epic: {
    valid: ['WKH1186253', 'ABC1234566', 'XYZ0000018', 'KLM7654320', 'ABC1234565'],
    invalid: ['AB12345678', 'ABCD123456', 'ABC123456'],
  },
  driving_licence: {
    valid: [
      'DL-0420110149646',
      'MH12 20110012345',
      'KA0120150012345',
      'TG09 20240001234',
      'MH-14-2011-0062821',
    ],
    invalid: [
      'XX0120150012345',
      'MH12 18990012345',
      'MH12 2011001234',
      'MH12AB1234',
      'MH00 20110012345',
    ],
  },
  gstin: {
    valid: [
      '27AAPFU0939F1ZV',
      '07AAACP1234C1Z3',
      '24AABFX4321R2ZU',
      '33AAATK0001C1ZR',
      '38AAACP1234C1ZY',
      '9917SGP29001OST',
      '07DELA12345B1DE',
    ],
    invalid: [
      '27AAPFU0939F1ZW',
      '27AAPFU0939F0ZV',
      '27AAPXU0939F1ZU',
      '45AAPFU0939F1ZX',
      '27AAPFU0939F1Z',
      '27AAPFU0939F0ZW',
    ],
  },
  ifsc: {
    valid: ['SBIN0000691', 'KKBK0000261', 'HDFC0000001', 'IBKL0070T16'],
    invalid: ['SBIN1000691', 'SBI00000691', 'SBININBB104'],
  },
  phone_in: {
    valid: [
      '+91 98765 43210',
      '+91-98765-43210',
      '098765 43210',
      '9876543210',
      '91 98765 43210',
      '0091 98765 43210',
    ],
    invalid: ['+91 98765 4321', '1800 180 1111', '5876543210', '98765432101', '+91 80 2345 6789'],
  },
  email: {
    valid: ['priya.sharma@example.in', 'a_b+tag@mail.example.co.in'],
    invalid: ['name@okaxis', 'a..b@example.com', 'a@b.c123', 'user@-example.com'],
  },
  bank_account: {
    valid: ['50100123456789', '12345678901'],
    invalid: ['12345678', '1234567890123456789'],
  },
};

describe('Indian identifier validators', () => {
  for (const type of INDIAN_TYPE_NAMES) {
    it(`${type}: accepts the valid vectors and refuses the near-misses`, () => {
      const { valid, invalid } = VECTORS[type];
      assert.deepEqual(
        verdicts(type, valid),
        valid.map(() => true),
        `valid ${type}`,
      );
      assert.deepEqual(
        verdicts(type, invalid),
        invalid.map(() => false),
        `near-miss ${type}`,
      );
    });
  }

  it('vid: a leading 0 or 1 lowers confidence and never rejects (the published rule)', () => {
    const rule = indianRule('vid');
    const likely = rule.validate('9134567890123450');
    const leadingOne = rule.validate('1234567890123455');
    assert.ok(likely.valid && leadingOne.valid);
    assert.ok(leadingOne.confidence < likely.confidence);
  });

  it('has a rule for every type the listing declares, and no other', () => {
    assert.deepEqual(
      INDIAN_TYPES.map((t) => t.type),
      [...INDIAN_TYPE_NAMES],
    );
  });

  it('gives the voter EPIC whose digits fail Luhn less confidence, without refusing it', () => {
    const rule = indianRule('voter_epic');
    const pass = rule.validate('ABC1234566');
    const fail = rule.validate('ABC1234565');
    assert.ok(pass.valid && fail.valid && pass.confidence > fail.confidence);
  });
});

const DEFAULTS = INDIAN_TYPE_NAMES.filter((t) => t !== 'bank_account');

function found(text: string, types: readonly IndianType[] = DEFAULTS) {
  return findIndianInText(text, types).findings.map((f) => [f.type, text.slice(f.start, f.end)]);
}

describe('Indian identifiers in running text', () => {
  it('finds each type with the separators people print, and spans the whole value', () => {
    const text = [
      'Dear Sir, my Aadhaar No. is 4918 7362 5102 and my VID: 9134-5678-9012-3450.',
      'PAN: ACUPA7085R; Passport No. A1234567; EPIC WKH1186253.',
      'DL No. MH12 20110012345, GSTIN 27AAPFU0939F1ZV (IFSC SBIN0000691).',
      'Call me on +91 98765 43210 or write to priya.sharma@example.in.',
    ].join('\n');
    assert.deepEqual(found(text), [
      ['aadhaar', '4918 7362 5102'],
      ['vid', '9134-5678-9012-3450'],
      ['pan', 'ACUPA7085R'],
      ['passport', 'A1234567'],
      ['voter_epic', 'WKH1186253'],
      ['driving_licence', 'MH12 20110012345'],
      ['gstin', '27AAPFU0939F1ZV'],
      ['ifsc', 'SBIN0000691'],
      ['phone_in', '+91 98765 43210'],
      ['email', 'priya.sharma@example.in'],
    ]);
  });

  it('leaves the negatives alone: invoice and order numbers, amounts, dates, pincodes, ISBNs', () => {
    const text = [
      'Invoice No. A1234567 dated 12/03/2024 for Rs. 1,25,000.00 (order 9876543210).',
      'Ship to Lucknow - 226010. Ref: 234567890123. ISBN 8126703571.',
      'Account 4918 7362 5108 and 5876543210 and 1800 180 1111.',
    ].join('\n');
    assert.deepEqual(found(text), []);
  });

  it('finds an Aadhaar number whose reader dropped one of its spaces, and no more', () => {
    assert.deepEqual(found('Aadhaar 4918 73625102 on file'), [['aadhaar', '4918 73625102']]);
    assert.deepEqual(found('Aadhaar 49187362 5102 on file'), [['aadhaar', '49187362 5102']]);
    // Still one number: not a window of a longer one, and the check digit decides.
    assert.deepEqual(found('Ref 4918 73625102 3450'), []);
    assert.deepEqual(found('Aadhaar 4918 73625108'), []);
  });

  it('never takes a twelve-digit window out of a VID or a longer number', () => {
    assert.deepEqual(found('VID 9134 5678 9012 3450'), [['vid', '9134 5678 9012 3450']]);
    assert.deepEqual(found('Ref 49187362510212'), []);
  });

  it('reads labels as whole words, never the cut end of a word before the value', () => {
    // "r.patel" cut to its last letters reads "tel", a phone label; the address below is an
    // address all the same. A whole "Tel" before a number of another shape still counts.
    assert.deepEqual(found('r.patel@example.com\npriya.gupta@example.in'), [
      ['email', 'r.patel@example.com'],
      ['email', 'priya.gupta@example.in'],
    ]);
    assert.deepEqual(found('Tel 9134 5678 9012 3450'), []);
    // Another type's label says nothing against an e-mail address, which is no other type.
    assert.deepEqual(found('Contact: priya.gupta@example.in'), [
      ['email', 'priya.gupta@example.in'],
    ]);
  });

  it('reports a GSTIN whole, not the PAN inside it', () => {
    assert.deepEqual(found('GSTIN: 27AAPFU0939F1ZV'), [['gstin', '27AAPFU0939F1ZV']]);
  });

  it('finds bank accounts only when enabled, and only beside a label or an IFSC', () => {
    const text = 'A/c No. 50100123456789, IFSC HDFC0000001\nRef 12345678901';
    assert.deepEqual(found(text, ['bank_account']), [['bank_account', '50100123456789']]);
    assert.deepEqual(found(text), [['ifsc', 'HDFC0000001']]);
  });

  it('reports why candidates were refused, without their values', () => {
    const { rejected } = findIndianInText('Aadhaar 4918 7362 5108, Order No. A1234567', DEFAULTS);
    assert.deepEqual(
      rejected.map((r) => [r.type, r.reason]),
      [
        ['aadhaar', 'checksum'],
        ['passport', 'context'],
      ],
    );
    assert.ok(rejected.every((r) => !('value' in r)));
  });
});
