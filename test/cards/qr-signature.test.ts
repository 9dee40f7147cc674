import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifySecureQrSignature } from '../../src/cards/qr-signature.js';
import { decodeSecureQr } from '../../src/cards/secure-qr.js';
import { decimalToBytes, inflatePayload } from '../../src/cards/secure-qr-bytes.js';
import {
  CertificateError,
  defaultUidaiCertificates,
  loadCertificates,
  loadPinnedCertificates,
  PINNED_UIDAI_CERTIFICATES,
  trustCertificate,
  uidaiAssetsDir,
  type TrustedCertificate,
} from '../../src/cards/uidai-certificates.js';
import { generateDocument, testCertificate } from '../fixtures/aadhaar/index.js';
import { encodePayload, VECTORS_DIR, vectorText } from './vectors.js';

const SUMIT = 'uidai_sample_sumit_kumar_secure_qr_v1';
const SUMIT_SIGNER = 'uidai_prod_cdup.cer';
const ANON_TEST_CERT = path.join(VECTORS_DIR, 'anon_aadhaar_testCertificate.pem');

let uidai: TrustedCertificate[] = [];
const testKey = () => [trustCertificate(testCertificate(), 'test-signing-cert.pem')];

/** The generator's QR text for the first back-scan seed that carries one. */
async function generatedQr(): Promise<string> {
  for (let seed = 1; ; seed += 1) {
    const text = (await generateDocument('back-scan', seed)).truth.secureQr?.text;
    if (text) return text;
  }
}

/** Re-encodes the QR with one byte of `field` changed (gzip, as UIDAI writes it). */
function tamper(text: string, field: string): string {
  const data = Buffer.from(inflatePayload(decimalToBytes(text)));
  const at = data.indexOf(Buffer.from(field, 'latin1'));
  assert.ok(at >= 0);
  data[at] = (data[at] ?? 0) ^ 0x01;
  return encodePayload(data);
}

before(async () => {
  uidai = await defaultUidaiCertificates();
});

describe('UIDAI certificates', () => {
  it('ships every pinned certificate, each RSA-2048 and matching its pin', () => {
    assert.equal(uidai.length, PINNED_UIDAI_CERTIFICATES.length);
    assert.deepEqual(
      uidai.map((c) => [c.label, c.fingerprint256]),
      PINNED_UIDAI_CERTIFICATES.map((p) => [p.file, p.fingerprint256]),
    );
    for (const certificate of uidai) {
      assert.equal(certificate.publicKey.asymmetricKeyDetails?.modulusLength, 2048);
    }
  });

  it('loads the shipped set when no paths are given, and nothing for an empty list', async () => {
    assert.equal((await loadCertificates()).length, uidai.length);
    assert.deepEqual(await loadCertificates([]), []);
  });

  it('does not trust test keys', () => {
    const fingerprints = new Set(uidai.map((c) => c.fingerprint256));
    assert.ok(!fingerprints.has(testKey()[0]?.fingerprint256 ?? ''));
  });

  it('refuses a shipped file whose fingerprint is not its pin', async () => {
    const [first, second] = PINNED_UIDAI_CERTIFICATES;
    assert.ok(first && second);
    const swapped = [{ file: first.file, fingerprint256: second.fingerprint256 }];
    await assert.rejects(loadPinnedCertificates(uidaiAssetsDir(), swapped), CertificateError);
  });

  describe('from configured files', () => {
    let dir = '';
    before(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parda-certs-'));
    });
    after(async () => {
      await fs.rm(dir, { recursive: true, force: true });
    });

    it('loads PEM and DER alike', async () => {
      const pem = path.join(uidaiAssetsDir(), SUMIT_SIGNER);
      const der = path.join(dir, 'signer.der');
      await fs.writeFile(der, new crypto.X509Certificate(await fs.readFile(pem)).raw);
      const [fromPem, fromDer] = await loadCertificates([pem, der]);
      assert.ok(fromPem && fromDer);
      assert.equal(fromDer.fingerprint256, fromPem.fingerprint256);
      assert.equal(fromDer.label, 'signer.der');
    });

    it('refuses bundles, non-certificates and missing files', async () => {
      const bundle = path.join(dir, 'bundle.pem');
      const pems = await Promise.all(
        uidai.slice(0, 2).map((c) => fs.readFile(path.join(uidaiAssetsDir(), c.label))),
      );
      await fs.writeFile(bundle, Buffer.concat(pems));
      const junk = path.join(dir, 'junk.cer');
      await fs.writeFile(junk, 'not a certificate');
      for (const file of [bundle, junk, path.join(dir, 'missing.cer')]) {
        await assert.rejects(loadCertificates([file]), CertificateError);
      }
    });
  });
});

describe('Secure QR signatures', () => {
  it("verifies UIDAI's sample under its signer, and under no other UIDAI key", () => {
    const payload = decodeSecureQr(vectorText(SUMIT));
    const result = verifySecureQrSignature(payload, uidai);
    assert.ok(result.status === 'valid');
    assert.deepEqual(result.certificate, {
      label: SUMIT_SIGNER,
      fingerprint256: 'fcf31a3f89211615ebd5d449ac33d8d381f654d2e2d15037d5cc8d4aeb72f836',
    });
    for (const other of uidai.filter((c) => c.label !== SUMIT_SIGNER)) {
      assert.deepEqual(verifySecureQrSignature(payload, [other]), {
        status: 'not_verified',
        reason: 'signature_mismatch',
      });
    }
  });

  it('finds no UIDAI key for the test-key sample', () => {
    const payload = decodeSecureQr(vectorText('uidai_sample_penumarthi_venkat_secure_qr_v1'));
    assert.equal(verifySecureQrSignature(payload, uidai).status, 'not_verified');
  });

  it("verifies anon-aadhaar's synthetic V2 only under its public test key", async () => {
    const anon = await loadCertificates([ANON_TEST_CERT]);
    const names = [
      'anon_aadhaar_synthetic_v2_dataInput',
      'anon_aadhaar_synthetic_v2_test',
    ] as const;
    for (const name of names) {
      const payload = decodeSecureQr(vectorText(name));
      assert.equal(verifySecureQrSignature(payload, anon).status, 'valid');
      assert.deepEqual(verifySecureQrSignature(payload, uidai), {
        status: 'not_verified',
        reason: 'signature_mismatch',
      });
    }
  });

  it("verifies the generator's QR under the test key only", async () => {
    const payload = decodeSecureQr(await generatedQr());
    const result = verifySecureQrSignature(payload, [...uidai, ...testKey()]);
    assert.equal(result.status === 'valid' && result.certificate.label, 'test-signing-cert.pem');
    assert.deepEqual(verifySecureQrSignature(payload, uidai), {
      status: 'not_verified',
      reason: 'signature_mismatch',
    });
  });

  it('reports a mismatch when one byte of a field changes', async () => {
    const sumit = vectorText(SUMIT);
    const forged = decodeSecureQr(tamper(sumit, 'Krishna Nagar'));
    assert.notEqual(forged.fields.postOffice, 'Krishna Nagar');
    assert.deepEqual(verifySecureQrSignature(forged, uidai), {
      status: 'not_verified',
      reason: 'signature_mismatch',
    });
    const generated = await generatedQr();
    const name = decodeSecureQr(generated).fields.name;
    const renamed = decodeSecureQr(tamper(generated, name));
    assert.notEqual(renamed.fields.name, name);
    assert.equal(verifySecureQrSignature(renamed, testKey()).status, 'not_verified');
  });

  it('says when no certificate is configured, or none could sign a QR', () => {
    const payload = decodeSecureQr(vectorText(SUMIT));
    const none = { status: 'not_verified', reason: 'no_certificates' };
    assert.deepEqual(verifySecureQrSignature(payload, []), none);
    const weak = (type: 'ec' | 'rsa'): TrustedCertificate => ({
      label: type,
      fingerprint256: '',
      publicKey:
        type === 'ec'
          ? crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey
          : crypto.generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey,
    });
    assert.deepEqual(verifySecureQrSignature(payload, [weak('ec'), weak('rsa')]), none);
  });

  it('treats a signature of the wrong length as a mismatch', () => {
    const payload = decodeSecureQr(vectorText(SUMIT));
    const short = { ...payload, signature: payload.signature.subarray(1) };
    assert.deepEqual(verifySecureQrSignature(short, uidai), {
      status: 'not_verified',
      reason: 'signature_mismatch',
    });
  });
});
