import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { backends } from '../../helpers/databases.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { simpleCard } from '../../helpers/cards.js';
import { fileUpload, type Part } from '../../helpers/multipart.js';
import { generateDocument, type GeneratedDocument } from '../../fixtures/aadhaar/index.js';
import type { AadhaarExtraction } from '../../../src/services/extract-aadhaar.js';
import type { PanExtraction } from '../../../src/services/extract-pan.js';
import { generateCard } from '../../fixtures/cards/index.js';

type Body = AadhaarExtraction & Record<string, unknown>;
const errorOf = (res: { body: string }) => (JSON.parse(res.body) as { error: string }).error;

const [sqlite] = backends();

/** A front scan whose card prints a full date of birth (seeds are fixed, so is the choice). */
async function frontWithDate(): Promise<GeneratedDocument> {
  for (let seed = 1; ; seed += 1) {
    const doc = await generateDocument('front-scan', seed);
    if (doc.truth.holder && !doc.truth.holder.yearOnly) return doc;
  }
}

describe('POST /api/v1/extract-aadhaar', () => {
  let t: TestApp;
  let key: string;
  let keyId: string;
  let revealKey: string;
  let front: GeneratedDocument;
  before(async () => {
    if (!sqlite) throw new Error('no sqlite backend');
    t = await startTestApp(sqlite, { routes: [] });
    ({ key, id: keyId } = await t.newKey({ monthlyQuota: 50 }));
    ({ key: revealKey } = await t.newKey({ monthlyQuota: 50, revealEntitled: true }));
    front = await frontWithDate();
  });
  after(() => t.close());

  const extract = (apiKey: string, bytes: Buffer, filename: string, extra: Part[] = []) => {
    const form = fileUpload(bytes, filename, extra);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/extract-aadhaar',
      headers: { 'x-api-key': apiKey, 'content-type': form.contentType },
      payload: form.body,
    });
  };
  const used = async (id: string) => (await t.store.quota(await t.store.getKey(id))).used;

  it('returns the printed fields, the number masked, and counts them in X-Extracted-Fields', async () => {
    const holder = front.truth.holder;
    assert.ok(holder);
    const number = front.truth.aadhaarNumbers[0] ?? '';
    const res = await extract(key, front.bytes, front.filename);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json<Body>();
    assert.deepEqual(Object.keys(body).sort(), [
      'checksum_valid',
      'document_type',
      'fields',
      'sides_detected',
      'success',
      'warnings',
    ]);
    assert.equal(body.success, true);
    assert.equal(body.document_type, 'aadhaar');
    assert.deepEqual(body.sides_detected, ['front']);
    const [day, month, year] = holder.dob.split('/');
    assert.deepEqual(body.fields, {
      name: holder.name,
      aadhaar_number: `XXXX XXXX ${number.slice(-4)}`,
      aadhaar_last4: number.slice(-4),
      date_of_birth: `${year}-${month}-${day}`,
      year_of_birth: null,
      gender: holder.gender,
      care_of: null,
      address: null,
      vid_detected: front.truth.vids.length > 0,
    });
    assert.equal(body.checksum_valid, true);
    assert.deepEqual(body.warnings, ['single_side_only']);
    const nonNull = Object.values(body.fields).filter((v) => v !== null && v !== false).length;
    assert.equal(res.headers['x-extracted-fields'], String(nonNull));
    assert.equal(res.headers['x-quota-used'], '1');
    // The full number appears nowhere in the response.
    assert.ok(!res.body.includes(number) && !res.body.includes(number.slice(0, 8)));
  });

  it('adds per-field confidence on request', async () => {
    const res = await extract(key, front.bytes, front.filename, [
      { name: 'include_confidence', value: 'true' },
    ]);
    assert.equal(res.statusCode, 200, res.body);
    const { confidence, fields } = res.json<Body>();
    assert.ok(confidence);
    assert.deepEqual(Object.keys(confidence).sort(), [
      'aadhaar_last4',
      'aadhaar_number',
      'address',
      'care_of',
      'date_of_birth',
      'gender',
      'name',
      'year_of_birth',
    ]);
    for (const [field, value] of Object.entries(confidence)) {
      if ((fields as unknown as Record<string, unknown>)[field] === null)
        assert.equal(value, null, field);
      else assert.ok(typeof value === 'number' && value > 0.5 && value <= 1, field);
    }
  });

  it('refuses reveal_aadhaar_number to a key without the entitlement, before any charge', async () => {
    const before = await used(keyId);
    const res = await extract(key, front.bytes, front.filename, [
      { name: 'reveal_aadhaar_number', value: 'true' },
    ]);
    assert.equal(res.statusCode, 403);
    assert.equal(errorOf(res), 'reveal_not_entitled');
    assert.equal(await used(keyId), before);
  });

  it('reveals the full number to an entitled key', async () => {
    const number = front.truth.aadhaarNumbers[0] ?? '';
    const res = await extract(revealKey, front.bytes, front.filename, [
      { name: 'reveal_aadhaar_number', value: 'true' },
    ]);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json<Body>().fields.aadhaar_number, number.replace(/(\d{4})(?=\d)/g, '$1 '));
  });

  it('answers 422 no_document_detected for a document that is no Aadhaar card, and does not charge', async () => {
    const letter = await simpleCard({
      lines: ['Invoice INV-2291', 'Amount due: 4,500.00', 'Thank you'],
    });
    const before = await used(keyId);
    const res = await extract(key, letter.bytes, 'invoice.png');
    assert.equal(res.statusCode, 422);
    assert.equal(errorOf(res), 'no_document_detected');
    assert.equal(await used(keyId), before);
  });

  it('does not charge a card from which nothing was read (a Secure QR symbol alone)', async () => {
    const back = await generateDocument('back-scan', 1);
    const qr = back.truth.pages[0]?.qrs[0];
    assert.ok(qr, 'the back carries a QR code');
    const xs = qr.quad.map((p) => p.x);
    const ys = qr.quad.map((p) => p.y);
    const left = Math.max(0, Math.floor(Math.min(...xs)) - 30);
    const top = Math.max(0, Math.floor(Math.min(...ys)) - 30);
    const symbol = await sharp(back.bytes)
      .extract({
        left,
        top,
        width: Math.ceil(Math.max(...xs)) + 30 - left,
        height: Math.ceil(Math.max(...ys)) + 30 - top,
      })
      .png()
      .toBuffer();
    const before = await used(keyId);
    const res = await extract(key, symbol, 'qr.png');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json<Body>().document_type, 'aadhaar');
    assert.equal(res.headers['x-extracted-fields'], '0');
    assert.equal(await used(keyId), before);
    assert.equal(res.headers['x-quota-used'], String(before));
  });

  it('rejects a boolean part that is not a boolean', async () => {
    const res = await extract(key, front.bytes, front.filename, [
      { name: 'include_confidence', value: 'maybe' },
    ]);
    assert.equal(res.statusCode, 422);
    assert.equal(errorOf(res), 'invalid_request');
  });
});

describe('POST /api/v1/extract-pan', () => {
  let t: TestApp;
  let key: string;
  let keyId: string;
  before(async () => {
    if (!sqlite) throw new Error('no sqlite backend');
    t = await startTestApp(sqlite, { routes: [] });
    ({ key, id: keyId } = await t.newKey({ monthlyQuota: 50 }));
  });
  after(() => t.close());

  const extract = (bytes: Buffer, filename: string, extra: Part[] = []) => {
    const form = fileUpload(bytes, filename, extra);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/extract-pan',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
  };

  it('returns the PAN in full, both names unswapped, the date and the holder type', async () => {
    const card = await generateCard('pan-old-scan', 5);
    const truth = card.truth;
    if (truth.documentType !== 'pan') throw new Error('not a PAN card');
    const res = await extract(card.bytes, card.filename, [
      { name: 'include_confidence', value: 'true' },
    ]);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json<PanExtraction>();
    assert.equal(body.success, true);
    assert.equal(body.document_type, 'pan');
    assert.deepEqual(body.fields, {
      pan: truth.pan,
      name: truth.name,
      father_name: truth.fatherName,
      date_of_birth: truth.dateOfBirth,
      holder_type: 'individual',
    });
    assert.equal(body.format_valid, true);
    assert.deepEqual(body.warnings, []);
    assert.deepEqual(Object.keys(body.confidence ?? {}).sort(), [
      'date_of_birth',
      'father_name',
      'holder_type',
      'name',
      'pan',
    ]);
    assert.equal(res.headers['x-extracted-fields'], '5');
    assert.equal(res.headers['x-quota-used'], '1');
  });

  it('answers 422 no_document_detected for an Aadhaar card, and does not charge', async () => {
    const front = await generateDocument('front-scan', 2);
    const before = (await t.store.quota(await t.store.getKey(keyId))).used;
    const res = await extract(front.bytes, front.filename);
    assert.equal(res.statusCode, 422);
    assert.equal(errorOf(res), 'no_document_detected');
    assert.equal((await t.store.quota(await t.store.getKey(keyId))).used, before);
  });
});
