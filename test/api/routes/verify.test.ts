import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { VerificationReport } from '../../../src/services/verify-document.js';
import { testKeyPath } from '../../fixtures/aadhaar/keys.js';
import { generateCard } from '../../fixtures/cards/index.js';
import { generateVerifyCard, type GeneratedVerifyCard } from '../../fixtures/cards/verify-kinds.js';
import { backends } from '../../helpers/databases.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { fileUpload } from '../../helpers/multipart.js';

const [sqlite] = backends();
if (!sqlite) throw new Error('no sqlite backend');
const SEED = 7919;

const signalIds = (report: VerificationReport) => report.signals.map((s) => s.id).sort();

/** The response names no value the card prints (the name, birth, pincode, full number). */
function assertNoValues(body: string, card: GeneratedVerifyCard): void {
  for (const value of card.printedValues) {
    assert.ok(!body.includes(value), `the response carries a printed value of ${card.id}`);
  }
}

async function verifyWith(t: TestApp, key: string, bytes: Buffer, filename: string) {
  const form = fileUpload(bytes, filename);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/verify-document',
    headers: { 'x-api-key': key, 'content-type': form.contentType },
    payload: form.body,
  });
}

describe('POST /api/v1/verify-document', () => {
  let t: TestApp;
  let key: string;
  let keyId: string;
  const cards = new Map<string, GeneratedVerifyCard>();
  before(async () => {
    t = await startTestApp(sqlite, {
      routes: [],
      env: { PARDA_UIDAI_CERTS: testKeyPath('certificate') },
    });
    ({ key, id: keyId } = await t.newKey({ monthlyQuota: 50 }));
    for (const kind of [
      'genuine-scan',
      'tampered-name',
      'forged-signature',
      'front-only',
    ] as const) {
      cards.set(kind, await generateVerifyCard(kind, SEED));
    }
  });
  after(() => t.close());

  const card = (kind: string): GeneratedVerifyCard => {
    const found = cards.get(kind);
    if (!found) throw new Error(`no ${kind} card`);
    return found;
  };
  const used = async () => (await t.store.quota(await t.store.getKey(keyId))).used;

  it('passes a genuine card, with the whole report and no printed value', async () => {
    const genuine = card('genuine-scan');
    const before = await used();
    const res = await verifyWith(t, key, genuine.bytes, genuine.filename);
    assert.equal(res.statusCode, 200, res.body);
    const report = res.json<VerificationReport>();
    assert.deepEqual(Object.keys(report).sort(), [
      'checks_performed',
      'qr',
      'rationale',
      'signals',
      'signature',
      'verdict',
    ]);
    assert.equal(report.verdict, 'pass');
    assert.equal(report.qr.status, 'decoded');
    assert.equal(report.qr.payload_version, 'V2');
    assert.ok((report.qr.pixels_per_module ?? 0) >= 1.5);
    assert.equal(report.qr.min_pixels_per_module, 2.5);
    assert.equal(report.signature.status, 'valid');
    assert.match(report.signature.certificate_sha256 ?? '', /^[0-9a-f]{64}$/);
    assert.deepEqual(report.checks_performed, [
      { id: 'qr_decoded', result: true },
      { id: 'qr_signature_verified', result: true },
      { id: 'printed_vs_signed_crosscheck', result: true },
      { id: 'aadhaar_checksum', result: true },
    ]);
    assert.deepEqual(report.signals, []);
    assertNoValues(res.body, genuine);
    assert.equal(await used(), before + 1, 'a verification is one document charged');
    assert.equal(res.headers['x-quota-used'], String(before + 1));
  });

  it('fails a card whose printed name was changed, with its signal', async () => {
    const tampered = card('tampered-name');
    const res = await verifyWith(t, key, tampered.bytes, tampered.filename);
    assert.equal(res.statusCode, 200, res.body);
    const report = res.json<VerificationReport>();
    assert.equal(report.verdict, 'fail');
    assert.deepEqual(signalIds(report), ['qr_name_mismatch']);
    assert.deepEqual(
      report.signals.map((s) => s.severity),
      ['high'],
    );
    assertNoValues(res.body, tampered);
  });

  it('fails a QR signed with a key no trusted certificate holds', async () => {
    const forged = card('forged-signature');
    const report = (
      await verifyWith(t, key, forged.bytes, forged.filename)
    ).json<VerificationReport>();
    assert.equal(report.verdict, 'fail');
    assert.deepEqual(report.signature, { status: 'not_verified', reason: 'signature_mismatch' });
    // A fail names what failed.
    assert.deepEqual(signalIds(report), ['qr_signature_invalid']);
    assert.equal(report.signals[0]?.severity, 'high');
  });

  it('reviews a card without a QR', async () => {
    const front = card('front-only');
    const report = (
      await verifyWith(t, key, front.bytes, front.filename)
    ).json<VerificationReport>();
    assert.equal(report.verdict, 'review');
    assert.equal(report.qr.status, 'not_found');
    assert.equal(report.qr.pixels_per_module, null);
    assert.deepEqual(report.signature, { status: 'not_verified', reason: 'qr_not_decoded' });
  });

  it('answers 422 no_document_detected for a document that is no Aadhaar card, not charged', async () => {
    let letter = await generateCard('not-a-card', 1);
    for (let seed = 2; letter.format === 'pdf'; seed += 1)
      letter = await generateCard('not-a-card', seed);
    const before = await used();
    const res = await verifyWith(t, key, letter.bytes, letter.filename);
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json<{ error: string }>().error, 'no_document_detected');
    assert.equal(await used(), before);
  });

  it('answers 401 without a key and 422 for a file that is no document', async () => {
    const genuine = card('genuine-scan');
    const form = fileUpload(genuine.bytes, genuine.filename);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/verify-document',
      headers: { 'content-type': form.contentType },
      payload: form.body,
    });
    assert.equal(res.statusCode, 401);
    const text = await verifyWith(t, key, Buffer.from('not an image at all'), 'card.txt');
    assert.equal(text.statusCode, 422);
    assert.equal(text.json<{ error: string }>().error, 'unsupported_file_type');
  });

  it('never logs a printed value', () => {
    const logs = t.logs.join('\n');
    for (const c of cards.values()) {
      for (const value of c.printedValues) assert.ok(!logs.includes(value), `${c.id} in the logs`);
    }
  });
});

describe('POST /api/v1/verify-document without a trusted certificate', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp(sqlite, { routes: [], env: { PARDA_UIDAI_CERTS: '' } });
    ({ key } = await t.newKey());
  });
  after(() => t.close());

  it('caps a genuine card at review, saying no certificate is configured', async () => {
    const genuine = await generateVerifyCard('genuine-scan', SEED);
    const report = (
      await verifyWith(t, key, genuine.bytes, genuine.filename)
    ).json<VerificationReport>();
    assert.equal(report.verdict, 'review');
    assert.deepEqual(report.signature, { status: 'not_verified', reason: 'no_certificates' });
    assert.deepEqual(report.signals, []);
  });

  it("fails a genuine test card under UIDAI's own certificates (the default set)", async () => {
    const shipped = await startTestApp(sqlite, { routes: [] });
    try {
      const { key: shippedKey } = await shipped.newKey();
      const genuine = await generateVerifyCard('genuine-scan', SEED);
      const report = (
        await verifyWith(shipped, shippedKey, genuine.bytes, genuine.filename)
      ).json<VerificationReport>();
      // The test key is no UIDAI key: what it signed does not verify under UIDAI's set.
      assert.equal(report.verdict, 'fail');
      assert.deepEqual(report.signature, { status: 'not_verified', reason: 'signature_mismatch' });
    } finally {
      await shipped.close();
    }
  });
});
