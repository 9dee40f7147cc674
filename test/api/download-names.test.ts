/** Hostile upload names, as sent in multipart, and the download names the endpoints derive. */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/databases.js';
import * as fixtures from '../helpers/fixtures.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { unzip } from '../helpers/unzip.js';

const [sqlite] = backends();
if (!sqlite) throw new Error('no sqlite backend');

/**
 * A multipart body whose file names are sent as RFC 5987 `filename*`, so that any character
 * (CR, LF, NUL, quotes) reaches the server as the client's name.
 */
function hostileForm(field: string, files: readonly { name: string; content: Buffer }[]) {
  const boundary = `----parda${crypto.randomBytes(8).toString('hex')}`;
  const chunks = files.flatMap((file) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; ` +
        `filename*=UTF-8''${encodeURIComponent(file.name)}\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    file.content,
    Buffer.from('\r\n'),
  ]);
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Client names and the download name of a PNG in which nothing was found. */
const NAMES: readonly (readonly [string, string])[] = [
  ['..%2F..%2Fetc%2Fpasswd', 'passwd.png'],
  ['..\\..\\x.png', 'x.png'],
  ['a\u0007Set-Cookie: b".png', 'aSet-Cookie_b.png'],
  ['nul\u0000.pdf', 'nul.png'],
  ['....', 'document.png'],
  [`${'n'.repeat(500)}.png`, `${'n'.repeat(100)}.png`],
];

const ENDPOINTS = ['mask-aadhaar', 'mask-pan', 'redact-pii', 'global/redact'];

function assertSafeHeader(header: string): void {
  assert.ok(!/[\r\n\0]/.test(header), 'no CR, LF or NUL');
  const quoted = /filename="([^"]*)"/.exec(header)?.[1];
  assert.ok(quoted !== undefined && !/["\\/]/.test(quoted), 'nothing to break out with');
  assert.ok(!/%2F|%5C|%22/i.test(header.split("filename*=UTF-8''")[1] ?? ''), 'no separator');
}

describe('download names of hostile uploads', () => {
  let t: TestApp;
  let key: string;
  let png: Buffer;
  before(async () => {
    t = await startTestApp(sqlite);
    ({ key } = await t.newKey({ monthlyQuota: 1000 }));
    png = await fixtures.png();
  });
  after(() => t.close());

  const post = (url: string, form: { body: Buffer; contentType: string }) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });

  for (const endpoint of ENDPOINTS) {
    it(`/api/v1/${endpoint} answers with the derived name only`, async () => {
      for (const [sent, expected] of NAMES) {
        const res = await post(
          `/api/v1/${endpoint}`,
          hostileForm('file', [{ name: sent, content: png }]),
        );
        assert.equal(res.statusCode, 200, `${JSON.stringify(sent)}: ${res.body}`);
        const header = String(res.headers['content-disposition']);
        assert.equal(
          header,
          `attachment; filename="${expected}"; filename*=UTF-8''${encodeURIComponent(expected)}`,
        );
        assertSafeHeader(header);
      }
    });
  }

  it('never takes a name with a line break as a file name (the multipart parser refuses it)', async () => {
    const res = await post(
      '/api/v1/mask-aadhaar',
      hostileForm('file', [{ name: 'a\r\nSet-Cookie: b.png', content: png }]),
    );
    assert.equal(res.statusCode, 422);
    assert.equal(res.json<{ error: string }>().error, 'missing_file');
    assert.equal(res.headers['content-disposition'], undefined);
  });

  it('names ZIP entries safely and keeps the client’s name in the manifest as data', async () => {
    const files = NAMES.map(([name]) => ({ name, content: png }));
    const res = await post('/api/v1/bulk/mask-aadhaar', hostileForm('files', files));
    assert.equal(res.statusCode, 200, res.body);
    const entries = await unzip(res.rawPayload);
    // Nothing is found on these blank images; each output still has the contract's name: the
    // index, the safe base name, `_masked`, the extension.
    const expected = NAMES.map(
      ([, name], i) => `${String(i + 1).padStart(3, '0')}_${name.replace(/\.png$/, '_masked.png')}`,
    );
    assert.deepEqual([...entries.keys()].sort(), [...expected, 'manifest.json'].sort());
    const manifest = JSON.parse(String(entries.get('manifest.json'))) as {
      results: { filename: string; output: string }[];
    };
    assert.deepEqual(
      manifest.results.map((r) => r.output),
      expected,
    );
    // The name as the multipart parser gave it (it keeps the last path segment), as JSON data.
    assert.deepEqual(
      manifest.results.map((r) => r.filename),
      NAMES.map(([name]) => name.replace('..\\..\\', '')),
    );
  });
});
