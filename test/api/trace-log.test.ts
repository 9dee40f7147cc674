/**
 * At `trace`, the most talkative level (where @fastify/multipart logs the busboy options with
 * every request header), a full cycle of every endpoint leaves no key, no credential header
 * and no identifier value in the log.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashKey } from '../../src/accounts/keys.js';
import { simpleCard } from '../helpers/cards.js';
import { backends } from '../helpers/databases.js';
import { pdfWithLines } from '../helpers/fixtures.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { fileUpload, multipart } from '../helpers/multipart.js';

const [sqlite] = backends();
if (!sqlite) throw new Error('no sqlite backend');

const AADHAAR = '2345 6789 0124';
const IBAN = 'GB82 WEST 1234 5698 7654 32';
const PAN = 'ABCPE1234F';
const AUTHORIZATION = 'Bearer s3cr3t-b34r3r-t0k3n-f0r-th3-l0g-t3st';
const COOKIE = 'session=c00k13-v4lu3-f0r-th3-l0g-t3st';
const TEXT = `Aadhaar ${AADHAAR}, IBAN ${IBAN}, PAN ${PAN}.`;

describe('logs at trace level', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp(sqlite, { env: { PARDA_LOG_LEVEL: 'trace' }, routes: [] });
    ({ key } = await t.newKey({ monthlyQuota: 1000 }));
  });
  after(() => t.close());

  it('hold no key, credential header or identifier value after every endpoint', async () => {
    const headers = () => ({ 'x-api-key': key, authorization: AUTHORIZATION, cookie: COOKIE });
    const aadhaarCard = (await simpleCard({ number: AADHAAR, format: 'jpeg' })).bytes;
    const panCard = (
      await simpleCard({
        lines: ['INCOME TAX DEPARTMENT', 'Permanent Account Number', PAN],
        format: 'jpeg',
      })
    ).bytes;
    const statement = pdfWithLines([
      [
        { text: `Aadhaar ${AADHAAR}`, x: 72, y: 760 },
        { text: `IBAN ${IBAN}`, x: 72, y: 730 },
        { text: `PAN ${PAN}`, x: 72, y: 700 },
      ],
    ]);
    const single = (url: string, bytes: Buffer, filename: string) => {
      const form = fileUpload(bytes, filename);
      return { method: 'POST' as const, url, form };
    };
    const batch = (url: string, files: { name: string; bytes: Buffer }[]) => {
      const form = multipart(
        files.map((f) => ({ name: 'files', filename: f.name, content: f.bytes })),
      );
      return { method: 'POST' as const, url, form };
    };
    const uploads = [
      single('/api/v1/mask-aadhaar', aadhaarCard, 'card.jpg'),
      single('/api/v1/mask-pan', panCard, 'pan.jpg'),
      batch('/api/v1/bulk/mask-aadhaar', [
        { name: 'a.jpg', bytes: aadhaarCard },
        { name: 'b.pdf', bytes: statement },
      ]),
      batch('/api/v1/bulk/mask-pan', [{ name: 'p.jpg', bytes: panCard }]),
      single('/api/v1/extract-aadhaar', aadhaarCard, 'card.jpg'),
      single('/api/v1/extract-pan', panCard, 'pan.jpg'),
      single('/api/v1/verify-document', aadhaarCard, 'card.jpg'),
      single('/api/v1/redact-pii', statement, 'statement.pdf'),
      batch('/api/v1/bulk/anonymise', [{ name: 's.pdf', bytes: statement }]),
      single('/api/v1/global/detect', statement, 'statement.pdf'),
      single('/api/v1/global/redact', statement, 'statement.pdf'),
      batch('/api/v1/global/batch/redact', [{ name: 's.pdf', bytes: statement }]),
    ];
    for (const { method, url, form } of uploads) {
      const res = await t.app.inject({
        method,
        url,
        headers: { ...headers(), 'content-type': form.contentType },
        payload: form.body,
      });
      assert.ok(res.statusCode < 500 && res.statusCode !== 401, `${url}: ${res.statusCode}`);
    }
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/v1/global/redact/text',
      headers: headers(),
      payload: { text: TEXT },
    });
    assert.equal(text.statusCode, 200, text.body);
    for (const url of [
      '/api/v1/account',
      '/api/v1/account/usage',
      '/api/v1/pii-types',
      '/api/v1/global/entity-types?countries=IN',
      '/health',
      '/health/ready',
      // A key in a query string (where no client should put it) is not logged either.
      `/api/v1/account?api_key=${key}`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: headers() });
      assert.ok(res.statusCode < 500, `${url}: ${res.statusCode}`);
    }

    const log = t.logs.join('');
    assert.match(log, /Providing options to busboy/, 'the log is at trace level');
    assert.match(log, /incoming request/);
    const secrets = [key, hashKey(key), AUTHORIZATION, 's3cr3t-b34r3r', COOKIE, 'c00k13-v4lu3'];
    for (const secret of secrets) assert.ok(!log.includes(secret), `the log holds ${secret}`);
    for (const value of [AADHAAR, IBAN, PAN]) {
      for (const form of [value, value.replace(/\s+/g, '')]) {
        assert.ok(!log.includes(form), `the log holds ${form}`);
      }
    }
    assert.doesNotMatch(log, /x-api-key|authorization|"cookie"/i);
  });
});
