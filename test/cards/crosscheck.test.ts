import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AadhaarCardText } from '../../src/cards/aadhaar-fields.js';
import { crossCheck, type CrossCheck } from '../../src/cards/crosscheck.js';
import { sameName } from '../../src/cards/name-match.js';
import type { SecureQrFields } from '../../src/cards/secure-qr.js';
import {
  verificationReport,
  type QrStatus,
  type VerificationFacts,
} from '../../src/cards/verdict.js';

describe('name comparison', () => {
  it('accepts the same name read with case, spacing, initials and OCR noise', () => {
    const same: [string, string][] = [
      ['Rahul Sharma', 'RAHUL SHARMA'],
      ['Rahul  Sharma.', 'Rahul Sharma'],
      ['RahulSharma', 'Rahul Sharma'],
      ['R. K. Sharma', 'Rajesh Kumar Sharma'],
      ['Rajesh K Sharma', 'Rajesh Kumar Sharma'],
      ['Lakshrni Verma', 'Lakshmi Verma'],
      ['Divya Gupta', 'Dlvya Gupta'],
      ['Gopal Yadav', 'G0pal Yadav'],
      ['Pradeep Singh', 'Pradep Singh'],
      ['Swati Kumar', 'SWATI KUMAR'],
    ];
    for (const [printed, signed] of same)
      assert.ok(sameName(printed, signed), `${printed} ~ ${signed}`);
  });

  it("refuses another person's name, even one letter away in a short name", () => {
    const different: [string, string][] = [
      ['Asha Devi', 'Usha Devi'],
      ['Anita Sharma', 'Anika Sharma'],
      ['Rahul Sharma', 'Rohit Sharma'],
      ['Amit Kumar', 'Sumit Kumar'],
      ['Rahul Sharma', 'Rahul Verma'],
      ['Rahul Sharma', 'Rahul Kumar Sharma'],
      ['Neha Gupta', 'Nisha Gupta'],
      ['Priya Singh', 'Pooja Singh'],
      ['Ravi Yadav', ''],
    ];
    for (const [printed, signed] of different) {
      assert.ok(!sameName(printed, signed), `${printed} !~ ${signed}`);
    }
  });
});

const signed: SecureQrFields = {
  emailMobileIndicator: 0,
  referenceId: '5620' + '20240101120000000',
  last4: '5620',
  generatedAt: null,
  name: 'Karan Reddy',
  dateOfBirth: '1985-04-13',
  yearOfBirth: null,
  gender: 'M',
  careOf: 'S/O: Vijay Reddy',
  district: '',
  landmark: '',
  house: '',
  location: '',
  pincode: '380849',
  postOffice: '',
  state: '',
  street: '',
  subDistrict: '',
  vtc: '',
  mobileLast4: null,
  foreignNational: null,
  validUntil: null,
  maskedEmail: null,
  unrecognisedFields: 0,
};

const read = <T>(value: T) => ({ value, confidence: 0.95 });

const printed: AadhaarCardText = {
  front: true,
  back: true,
  name: read('Karan Reddy'),
  number: read('940829635620'),
  maskedLast4: null,
  numberDamaged: false,
  checksumValid: true,
  dateOfBirth: read('1985-04-13'),
  yearOfBirth: null,
  birthLabel: 'date',
  birthUnread: null,
  genderUnread: null,
  gender: read('M'),
  careOf: read('S/O: Vijay Reddy'),
  address: read({ full: 'H.No. 11, Ahmedabad, Gujarat - 380849', pincode: '380849' }),
  vidDetected: false,
};

describe('printed against signed', () => {
  it('compares every field the card prints, and finds them the same', () => {
    assert.deepEqual(crossCheck(printed, signed), {
      compared: ['name', 'birth', 'last4', 'gender', 'pincode'],
      mismatches: [],
    });
  });

  it('names each field that differs', () => {
    const altered: AadhaarCardText = {
      ...printed,
      name: read('Karan Singh'),
      dateOfBirth: read('1985-04-14'),
      number: null,
      maskedLast4: read('5621'),
      gender: read('F'),
      address: read({ full: 'Ahmedabad - 380850', pincode: '380850' }),
    };
    assert.deepEqual(crossCheck(altered, signed).mismatches, [
      'qr_name_mismatch',
      'qr_dob_mismatch',
      'qr_aadhaar_last4_mismatch',
      'qr_gender_mismatch',
      'qr_pincode_mismatch',
    ]);
  });

  it('checks the last four digits of a masked card', () => {
    const masked = { ...printed, number: null, maskedLast4: read('5620') };
    assert.ok(crossCheck(masked, signed).compared.includes('last4'));
    assert.deepEqual(crossCheck(masked, signed).mismatches, []);
  });

  it('compares years where the card prints only the year, and skips what it does not print', () => {
    const yearOnly: AadhaarCardText = {
      ...printed,
      dateOfBirth: null,
      yearOfBirth: read(1985),
      birthLabel: 'year',
      address: null,
    };
    assert.deepEqual(crossCheck(yearOnly, signed), {
      compared: ['name', 'birth', 'last4', 'gender'],
      mismatches: [],
    });
    const wrongYear = { ...yearOnly, yearOfBirth: read(1986) };
    assert.deepEqual(crossCheck(wrongYear, signed).mismatches, ['qr_dob_mismatch']);
  });
});

const clean: CrossCheck = {
  compared: ['name', 'birth', 'last4', 'gender', 'pincode'],
  mismatches: [],
};
const certificate = { label: 'test.pem', fingerprint256: 'ab'.repeat(32) };

function facts(overrides: Partial<VerificationFacts> = {}): VerificationFacts {
  return {
    qrStatus: 'decoded',
    payloadVersion: 'V2',
    pixelsPerModule: 3.2,
    signature: { status: 'valid', certificate },
    crossCheck: clean,
    checksumValid: true,
    ...overrides,
  };
}

describe('the verdict', () => {
  it('passes a decoded, validly signed QR whose printed fields all agree', () => {
    const report = verificationReport(facts());
    assert.equal(report.verdict, 'pass');
    assert.deepEqual(report.signature, { status: 'valid', certificate_sha256: 'ab'.repeat(32) });
    assert.deepEqual(report.checks_performed, [
      { id: 'qr_decoded', result: true },
      { id: 'qr_signature_verified', result: true },
      { id: 'printed_vs_signed_crosscheck', result: true },
      { id: 'aadhaar_checksum', result: true },
    ]);
    assert.deepEqual(report.signals, []);
    assert.deepEqual(report.qr, {
      status: 'decoded',
      payload_version: 'V2',
      pixels_per_module: 3.2,
      min_pixels_per_module: 2.5,
    });
  });

  it('fails a signature no trusted key verifies, however well the text agrees', () => {
    const report = verificationReport(
      facts({ signature: { status: 'not_verified', reason: 'signature_mismatch' } }),
    );
    assert.equal(report.verdict, 'fail');
    assert.deepEqual(report.signature, { status: 'not_verified', reason: 'signature_mismatch' });
  });

  it('fails a card whose printed text contradicts the QR, with a signal per field', () => {
    const report = verificationReport(
      facts({ crossCheck: { compared: clean.compared, mismatches: ['qr_gender_mismatch'] } }),
    );
    assert.equal(report.verdict, 'fail');
    assert.deepEqual(
      report.signals.map((s) => [s.id, s.severity]),
      [['qr_gender_mismatch', 'medium']],
    );
    assert.ok(
      report.checks_performed.some((c) => c.id === 'printed_vs_signed_crosscheck' && !c.result),
    );
  });

  it('caps a clean card at review when no certificate is configured', () => {
    const report = verificationReport(
      facts({ signature: { status: 'not_verified', reason: 'no_certificates' } }),
    );
    assert.equal(report.verdict, 'review');
    assert.deepEqual(report.signature, { status: 'not_verified', reason: 'no_certificates' });
  });

  it('reviews a card whose only fault is a number failing Verhoeff', () => {
    const report = verificationReport(facts({ checksumValid: false }));
    assert.equal(report.verdict, 'review');
    assert.deepEqual(
      report.signals.map((s) => [s.id, s.severity]),
      [['aadhaar_checksum_invalid', 'medium']],
    );
  });

  it('reviews a card without a decodable Secure QR, and says why', () => {
    const statuses: QrStatus[] = [
      'not_found',
      'unreadable',
      'unsigned_xml',
      'unsupported_format',
      'invalid_payload',
    ];
    for (const qrStatus of statuses) {
      const report = verificationReport(
        facts({ qrStatus, payloadVersion: null, signature: null, crossCheck: null }),
      );
      assert.equal(report.verdict, 'review', qrStatus);
      assert.equal(report.qr.status, qrStatus);
      assert.deepEqual(report.signature, { status: 'not_verified', reason: 'qr_not_decoded' });
      assert.deepEqual(report.checks_performed, [
        { id: 'qr_decoded', result: false },
        { id: 'aadhaar_checksum', result: true },
      ]);
    }
  });

  it('tells a customer to photograph a coarse QR closer', () => {
    const report = verificationReport(
      facts({
        qrStatus: 'unreadable',
        payloadVersion: null,
        pixelsPerModule: 1.4,
        signature: null,
        crossCheck: null,
      }),
    );
    assert.deepEqual(
      report.signals.map((s) => [s.id, s.severity]),
      [['qr_resolution_low', 'low']],
    );
  });

  it('reviews a card too little of which could be read to compare', () => {
    const report = verificationReport(
      facts({ crossCheck: { compared: ['pincode'], mismatches: [] } }),
    );
    assert.equal(report.verdict, 'review');
  });

  it('leaves the checksum check out when only a masked number is printed', () => {
    const report = verificationReport(facts({ checksumValid: null }));
    assert.equal(report.verdict, 'pass');
    assert.ok(!report.checks_performed.some((c) => c.id === 'aadhaar_checksum'));
  });
});
