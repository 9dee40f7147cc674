import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import {
  decodeSecureQr,
  SecureQrError,
  type SecureQrErrorCode,
  type SecureQrPayload,
} from '../../src/cards/secure-qr.js';
import { decimalToBytes, inflatePayload } from '../../src/cards/secure-qr-bytes.js';
import { splitSecureQr } from '../../src/cards/secure-qr-layout.js';
import { generateDocument } from '../fixtures/aadhaar/index.js';
import { greyJ2k } from '../fixtures/aadhaar/secure-qr.js';
import {
  bytesToDecimal,
  encodePayload,
  expectedVector,
  VECTOR_NAMES,
  vectorText,
} from './vectors.js';

/** The vectors' snake_case field names, and ours. */
const FIELD_NAMES = {
  reference_id: 'referenceId',
  name: 'name',
  care_of: 'careOf',
  district: 'district',
  landmark: 'landmark',
  house: 'house',
  location: 'location',
  pincode: 'pincode',
  post_office: 'postOffice',
  state: 'state',
  street: 'street',
  sub_district: 'subDistrict',
  vtc: 'vtc',
} as const;

function ddmmyyyyToIso(value: string): string {
  const [day, month, year] = value.split('-');
  return `${year ?? ''}-${month ?? ''}-${day ?? ''}`;
}

function inflated(text: string): Buffer {
  return inflatePayload(decimalToBytes(text));
}

/** Asserts the error code, and that the message quotes none of the payload's values. */
function assertFails(text: string, code: SecureQrErrorCode, secrets: readonly string[] = []) {
  assert.throws(
    () => decodeSecureQr(text),
    (error: unknown) => {
      assert.ok(error instanceof SecureQrError);
      assert.equal(error.code, code);
      for (const secret of [...secrets, text.slice(0, 12)]) {
        if (secret.length >= 4) assert.ok(!error.message.includes(secret), 'message leaks data');
      }
      return true;
    },
  );
}

const SUMIT = 'uidai_sample_sumit_kumar_secure_qr_v1';
const sumitValues = Object.values(expectedVector(SUMIT).fields);

describe('Secure QR vectors', () => {
  for (const name of VECTOR_NAMES) {
    it(`decodes ${name} to its expected fields`, () => {
      const expected = expectedVector(name);
      const payload = decodeSecureQr(vectorText(name));
      assert.equal(payload.version, expected.version_field ?? 'V1');
      const fields = payload.fields as unknown as Record<string, unknown>;
      for (const [snake, camel] of Object.entries(FIELD_NAMES)) {
        assert.equal(fields[camel], expected.fields[snake], camel);
      }
      assert.equal(
        payload.fields.emailMobileIndicator,
        Number(expected.fields.email_mobile_indicator),
      );
      assert.equal(payload.fields.gender, expected.fields.gender);
      assert.equal(payload.fields.dateOfBirth, ddmmyyyyToIso(expected.fields.dob ?? ''));
      assert.equal(payload.fields.yearOfBirth, null);
      assert.equal(payload.fields.last4, expected.reference_id_parts.aadhaar_last4);
      const stamp = expected.reference_id_parts.timestamp_yyyymmddhhmmssmmm_ist;
      assert.equal(
        payload.fields.generatedAt,
        `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T` +
          `${stamp.slice(8, 10)}:${stamp.slice(10, 12)}:${stamp.slice(12, 14)}.` +
          `${stamp.slice(14)}+05:30`,
      );
      assert.equal(payload.fields.mobileLast4, expected.extra_fields_after_vtc[0] ?? null);
      assert.equal(payload.fields.unrecognisedFields, 0);
      assert.equal(payload.signedData.length, expected.signed_bytes_range[1]);
      assert.equal(payload.signature.length, 256);
      assert.equal(payload.signedData.length + 256, expected.decompressed_len);
    });

    it(`finds the photo's end in ${name}`, () => {
      const layout = splitSecureQr(inflated(vectorText(name)));
      assert.equal(layout.tail.length, expectedVector(name).bytes_between_photo_and_signature);
    });
  }

  it('returns neither the photo nor the hashes', () => {
    const payload = decodeSecureQr(vectorText(SUMIT));
    assert.deepEqual(Object.keys(payload).sort(), ['fields', 'signature', 'signedData', 'version']);
    for (const value of Object.values(payload.fields)) {
      assert.ok(value === null || typeof value === 'string' || typeof value === 'number');
      if (typeof value === 'string') assert.ok(value.length < 64);
    }
  });
});

describe('Secure QRs from the test generator', () => {
  it('decode to the fields they were built from', async () => {
    let checked = 0;
    for (let seed = 1; seed <= 8; seed += 1) {
      const doc = await generateDocument('back-scan', seed);
      const truth = doc.truth.secureQr;
      if (!truth) continue;
      checked += 1;
      const { fields, version } = decodeSecureQr(truth.text);
      const t = truth.fields;
      assert.equal(version, t.version);
      assert.equal(fields.emailMobileIndicator, t.emailMobileIndicator);
      assert.equal(fields.referenceId, t.referenceId);
      assert.equal(fields.last4, t.referenceId.slice(0, 4));
      assert.match(fields.generatedAt ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+05:30$/);
      assert.equal(fields.name, t.name);
      assert.equal(fields.dateOfBirth, ddmmyyyyToIso(t.dob));
      assert.equal(fields.gender, t.gender);
      for (const key of [
        'careOf',
        'district',
        'landmark',
        'house',
        'location',
        'pincode',
        'postOffice',
        'state',
        'street',
        'subDistrict',
        'vtc',
      ] as const) {
        assert.equal(fields[key], t[key], key);
      }
      assert.equal(fields.mobileLast4, t.mobileLast4 === '' ? null : t.mobileLast4);
    }
    assert.ok(checked >= 5);
  });
});

/** Builds a decompressed payload (with a dummy signature) to exercise layouts by hand. */
function payload(options: {
  version?: string;
  fields?: readonly (string | Buffer)[];
  extras?: readonly string[];
  photo?: Buffer;
  tail?: Buffer;
}): Buffer {
  const fields = options.fields ?? [
    '2',
    '123420240131235959001',
    'Asha Devi',
    '15-08-1990',
    'F',
    'D/O Ram Lal',
    'Pune',
    '',
    '12',
    '',
    '411001',
    'Shivajinagar',
    'Maharashtra',
    'FC Road',
    'Haveli',
    'Pune',
  ];
  const parts: Buffer[] = [];
  const push = (value: string | Buffer) =>
    parts.push(Buffer.isBuffer(value) ? value : Buffer.from(value, 'latin1'), Buffer.of(0xff));
  if (options.version) push(options.version);
  fields.forEach(push);
  (options.extras ?? []).forEach(push);
  parts.push(options.photo ?? Buffer.alloc(0), options.tail ?? Buffer.alloc(0));
  parts.push(Buffer.alloc(256, 0xff));
  return Buffer.concat(parts);
}

const PHOTO = greyJ2k(60, 60, Buffer.alloc(600, 0x11));
const HASH = Buffer.alloc(32, 0xff);

function decode(data: Buffer): SecureQrPayload {
  return decodeSecureQr(encodePayload(data));
}

describe('Secure QR layouts', () => {
  it('reads a V1 payload with one hash', () => {
    const { fields, version } = decode(
      payload({ fields: undefined, photo: PHOTO, tail: Buffer.alloc(32, 7) }),
    );
    assert.equal(version, 'V1');
    assert.equal(fields.name, 'Asha Devi');
    assert.equal(fields.gender, 'F');
    assert.equal(fields.mobileLast4, null);
    assert.equal(fields.generatedAt, '2024-01-31T23:59:59.001+05:30');
  });

  it('skips a photo-less V2 payload with an e-mail hash', () => {
    const { fields } = decode(payload({ version: 'V2', extras: ['9876'], tail: HASH }));
    assert.equal(fields.mobileLast4, '9876');
    assert.equal(fields.vtc, 'Pune');
  });

  it('reads a masked mobile and an empty mobile field', () => {
    const masked = decode(payload({ version: 'V5', extras: ['xxxxxx4321'], photo: PHOTO }));
    assert.equal(masked.fields.mobileLast4, '4321');
    assert.equal(masked.fields.foreignNational, false);
    const empty = decode(payload({ version: 'V3', extras: [''], photo: PHOTO }));
    assert.equal(empty.fields.mobileLast4, null);
    assert.equal(empty.fields.unrecognisedFields, 0);
  });

  it("reads a V5 foreign national's validity date", () => {
    const { fields, version } = decode(
      payload({ version: 'V5', extras: ['1', '31-12-2030', '5555'], photo: PHOTO }),
    );
    assert.equal(version, 'V5');
    assert.equal(fields.foreignNational, true);
    assert.equal(fields.validUntil, '2030-12-31');
    assert.equal(fields.mobileLast4, '5555');
    assert.equal(fields.unrecognisedFields, 0);
  });

  it('counts extras it cannot classify', () => {
    const { fields } = decode(payload({ version: 'V4', extras: ['what', '1234'], photo: PHOTO }));
    assert.equal(fields.unrecognisedFields, 1);
    assert.equal(fields.mobileLast4, '1234');
  });

  it('reads a V3 masked e-mail block, and never a hash as one', () => {
    const block = Buffer.alloc(32);
    block.write('ab****@example.com', 32 - 18, 'latin1');
    const masked = decode(payload({ version: 'V3', extras: ['1234'], photo: PHOTO, tail: block }));
    assert.equal(masked.fields.maskedEmail, 'ab****@example.com');
    const hashed = decode(payload({ version: 'V3', extras: ['1234'], photo: PHOTO, tail: HASH }));
    assert.equal(hashed.fields.maskedEmail, null);
  });

  it('skips a photo in a JP2 container', () => {
    const box = (type: string, body: Buffer) => {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(8 + body.length);
      head.write(type, 4, 'latin1');
      return Buffer.concat([head, body]);
    };
    const jp2 = Buffer.concat([
      box('jP  ', Buffer.from([0x0d, 0x0a, 0x87, 0x0a])),
      box('ftyp', Buffer.from('jp2 \0\0\0\0jp2 ', 'latin1')),
      box('jp2c', PHOTO),
    ]);
    const { fields } = decode(payload({ version: 'V2', extras: ['1111'], photo: jp2, tail: HASH }));
    assert.equal(fields.mobileLast4, '1111');
  });

  it('decodes UTF-8 text, and ISO-8859-1 when it is not UTF-8', () => {
    const fields = [
      '0',
      '000120231301000000000',
      Buffer.from('Zoë Müller', 'utf8'),
      '1975',
      'T',
      Buffer.from('C/O José', 'latin1'),
      ...Array.from({ length: 10 }, () => ''),
    ];
    const decoded = decode(payload({ fields }));
    assert.equal(decoded.fields.name, 'Zoë Müller');
    assert.equal(decoded.fields.careOf, 'C/O José');
    assert.equal(decoded.fields.yearOfBirth, 1975);
    assert.equal(decoded.fields.dateOfBirth, null);
    assert.equal(decoded.fields.gender, 'T');
    assert.equal(decoded.fields.generatedAt, null);
    assert.equal(decoded.fields.last4, '0001');
  });

  it('accepts zlib as well as gzip', () => {
    const data = payload({ photo: PHOTO, tail: HASH });
    assert.equal(decodeSecureQr(bytesToDecimal(zlib.deflateSync(data))).fields.pincode, '411001');
  });
});

describe('Secure QR errors', () => {
  const sumit = inflated(vectorText(SUMIT));

  it('refuses text that is not a decimal number', () => {
    for (const text of ['', '   ', 'hello', '12a34', '-1234', '1234.5', '１２３４']) {
      assertFails(text, 'not_numeric');
    }
  });

  it('refuses more digits than a QR holds, before converting them', () => {
    assertFails('7'.repeat(8001), 'too_long');
  });

  it('refuses bytes that are not compressed', () => {
    assertFails(
      bytesToDecimal(Buffer.from('plain bytes, no gzip or zlib header')),
      'not_compressed',
    );
    assertFails('12345678901234567890', 'not_compressed');
  });

  it('refuses a zip bomb', () => {
    const bomb = zlib.gzipSync(Buffer.alloc(1024 * 1024));
    const text = bytesToDecimal(bomb);
    assert.ok(text.length <= 8000);
    assertFails(text, 'too_large');
  });

  it('refuses truncated compressed data', () => {
    const compressed = decimalToBytes(vectorText(SUMIT));
    assertFails(bytesToDecimal(compressed.subarray(0, 900)), 'malformed', sumitValues);
    // Digits dropped from the text change every byte, the header included.
    assertFails(vectorText(SUMIT).trim().slice(0, 2000), 'not_compressed', sumitValues);
  });

  it('refuses truncated payloads', () => {
    for (const length of [10, 200, 300, 700, 1000, 1300]) {
      assertFails(encodePayload(sumit.subarray(0, length)), 'malformed', sumitValues);
    }
  });

  it('refuses payloads with a broken layout', () => {
    const badIndicator = Buffer.from(sumit);
    badIndicator[0] = 0x37; // '7'
    assertFails(encodePayload(badIndicator), 'malformed', sumitValues);
    const badReference = Buffer.from(sumit);
    badReference[2] = 0x41; // 'A' in the reference id's last four digits
    assertFails(encodePayload(badReference), 'malformed', sumitValues);
    // Indicator 1 announces one hash, but the sample holds two.
    const wrongTail = Buffer.from(sumit);
    wrongTail[0] = 0x31;
    assertFails(encodePayload(wrongTail), 'malformed', sumitValues);
  });

  it('refuses unknown versions', () => {
    const v2 = inflated(vectorText('anon_aadhaar_synthetic_v2_test'));
    for (const digit of ['7', '1']) {
      const changed = Buffer.from(v2);
      changed.write(digit, 1, 'latin1');
      assertFails(encodePayload(changed), 'unsupported_version', sumitValues);
    }
    const garbled = Buffer.from(v2);
    garbled.write('x', 1, 'latin1');
    assertFails(encodePayload(garbled), 'malformed', sumitValues);
  });
});
