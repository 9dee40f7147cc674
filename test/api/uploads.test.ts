import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import * as fixtures from '../helpers/fixtures.js';
import { fileUpload, multipart, type Part } from '../helpers/multipart.js';
import { pngClaiming } from '../helpers/png.js';

const [sqlite] = backends();

const tempEntries = () =>
  new Set(fs.readdirSync(os.tmpdir()).filter((name) => !name.startsWith('parda-test-')));

describe('uploads and intake over HTTP', () => {
  let t: TestApp;
  let key: string;
  let tempBefore: Set<string>;
  before(async () => {
    if (!sqlite) throw new Error('no sqlite backend');
    tempBefore = tempEntries();
    t = await startTestApp(sqlite, {
      env: { PARDA_MAX_UPLOAD_MB: '2', PARDA_MAX_IMAGE_MEGAPIXELS: '1', PARDA_MAX_PAGES: '3' },
    });
    ({ key } = await t.newKey());
  });
  after(() => t.close());

  const post = (form: { body: Buffer; contentType: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/test/probe',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });

  const expectError = async (
    form: { body: Buffer; contentType: string },
    status: number,
    error: string,
  ) => {
    const res = await post(form);
    assert.equal(res.statusCode, status, res.body);
    const body = res.json<Record<string, unknown>>();
    assert.deepEqual(Object.keys(body).sort(), ['error', 'message']);
    assert.equal(body['error'], error);
    assert.equal(res.headers['x-quota-used'], '0', 'a refused upload is never charged');
    return body;
  };

  it('accepts JPEG, PNG and PDF on the Indian formats', async () => {
    for (const [name, bytes, format] of [
      ['card.jpg', await fixtures.jpeg(), 'jpeg'],
      ['card.png', await fixtures.png(), 'png'],
      ['card.pdf', fixtures.pdf({ pages: 2 }), 'pdf'],
    ] as const) {
      const res = await post(fileUpload(bytes, name));
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json<{ format: string; pages: unknown[] }>();
      assert.equal(body.format, format);
      assert.equal(body.pages.length, format === 'pdf' ? 2 : 1);
    }
  });

  it('types files by magic bytes, not by name', async () => {
    const res = await post(fileUpload(await fixtures.png(), 'looks-like.pdf'));
    assert.equal(res.json<{ format: string }>().format, 'png');
    await expectError(
      fileUpload(Buffer.from('plain text, not a card'), 'card.jpg'),
      422,
      'unsupported_file_type',
    );
  });

  it('accepts WEBP, TIFF and BMP only where the global formats apply', async () => {
    for (const bytes of [await fixtures.webp(), await fixtures.tiff(), fixtures.bmp()]) {
      await expectError(fileUpload(bytes), 422, 'unsupported_file_type');
      const res = await post(fileUpload(bytes, 'x', [{ name: 'formats', value: 'global' }]));
      assert.equal(res.statusCode, 200, res.body);
    }
  });

  it('refuses empty, corrupt and truncated files with their own codes', async () => {
    await expectError(fileUpload(Buffer.alloc(0)), 422, 'empty_file');
    const jpeg = await fixtures.jpeg({ width: 400, height: 300 });
    const corrupt = Buffer.concat([
      jpeg.subarray(0, 4),
      Buffer.alloc(2000, 0x41),
      Buffer.from([0xff, 0xd9]),
    ]);
    await expectError(fileUpload(corrupt), 422, 'corrupt_file');
    await expectError(
      fileUpload(jpeg.subarray(0, Math.floor(jpeg.length * 0.6))),
      422,
      'truncated_file',
    );
    const png = await fixtures.png({ width: 400, height: 300 });
    await expectError(fileUpload(png.subarray(0, png.length - 30)), 422, 'truncated_file');
    const pdf = fixtures.pdf({ pages: 2 });
    await expectError(
      fileUpload(pdf.subarray(0, Math.floor(pdf.length * 0.7))),
      422,
      'truncated_file',
    );
    await expectError(
      fileUpload(Buffer.from('%PDF-1.7\n garbage garbage\n%%EOF\n')),
      422,
      'corrupt_file',
    );
  });

  it('refuses a decompression bomb from its header, before decoding', async () => {
    const bomb = pngClaiming(50_000, 50_000);
    assert.ok(bomb.length < 2000);
    const body = await expectError(fileUpload(bomb), 422, 'image_too_large');
    assert.match(String(body['message']), /50000x50000/);
    await expectError(
      fileUpload(await fixtures.png({ width: 1200, height: 1000 })),
      422,
      'image_too_large',
    );
  });

  it('refuses documents with more pages than allowed', async () => {
    await expectError(fileUpload(fixtures.pdf({ pages: 4 })), 422, 'too_many_pages');
  });

  it('asks for the password of an encrypted PDF and opens it with pdf_password', async () => {
    const locked = fixtures.pdf({ pages: 1, userPassword: 'kyc-1234' });
    await expectError(fileUpload(locked), 422, 'pdf_encrypted');
    await expectError(
      fileUpload(locked, 'e.pdf', [{ name: 'pdf_password', value: 'wrong' }]),
      422,
      'pdf_password_incorrect',
    );
    const res = await post(
      fileUpload(locked, 'e.pdf', [{ name: 'pdf_password', value: 'kyc-1234' }]),
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json<{ pages: unknown[] }>().pages.length, 1);
    // An owner password alone restricts editing, not reading: no password is needed.
    const ownerOnly = fixtures.pdf({ pages: 1, ownerPassword: 'owner' });
    assert.equal((await post(fileUpload(ownerOnly))).statusCode, 200);
  });

  it('413 file_too_large past the upload limit, without charging', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 0xff);
    const body = await expectError(fileUpload(big), 413, 'file_too_large');
    assert.match(String(body['message']), /2 MB/);
  });

  it('413 over real HTTP while the client is still sending, with the body streamed', async () => {
    // The server is closed with the app in `after`.
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    {
      const form = fileUpload(Buffer.alloc(20 * 1024 * 1024, 0x42), 'huge.png');
      const res = await fetch(`${address}/api/v1/test/probe`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': form.contentType },
        body: form.body,
      });
      assert.equal(res.status, 413);
      assert.equal(((await res.json()) as { error: string }).error, 'file_too_large');
    }
  });

  it('refuses malformed forms with clear codes', async () => {
    const jpeg = await fixtures.jpeg();
    await expectError(multipart([{ name: 'output_format', value: 'pdf' }]), 422, 'invalid_request');
    await expectError(multipart([{ name: 'found', value: '1' }]), 422, 'missing_file');
    const two: Part[] = [
      { name: 'file', filename: 'a.jpg', content: jpeg },
      { name: 'file', filename: 'b.jpg', content: jpeg },
    ];
    await expectError(multipart(two), 422, 'too_many_files');
    await expectError(
      multipart([{ name: 'document', filename: 'a.jpg', content: jpeg }]),
      422,
      'invalid_request',
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/probe',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: JSON.stringify({ file: 'abc' }),
    });
    assert.equal(res.statusCode, 415);
    assert.equal(res.json<{ error: string }>().error, 'unsupported_media_type');
    // A body whose boundary is not the header's, or that ends early: 400, never a 500.
    const declared = multipart([{ name: 'file', filename: 'a.jpg', content: jpeg }]);
    const sent = multipart([{ name: 'file', filename: 'a.jpg', content: jpeg }]);
    for (const payload of [sent.body, declared.body.subarray(0, declared.body.length - 40)]) {
      const broken = await t.app.inject({
        method: 'POST',
        url: '/api/v1/test/probe',
        headers: { 'x-api-key': key, 'content-type': declared.contentType },
        payload,
      });
      assert.equal(broken.statusCode, 400, broken.body);
      assert.equal(broken.json<{ error: string }>().error, 'malformed_request');
    }
  });

  it('leaves no temporary files behind, failures included', () => {
    const now = tempEntries();
    const added = [...now].filter((name) => !tempBefore.has(name));
    assert.deepEqual(added, []);
    assert.ok(!fs.existsSync(t.settings.tmpDir) || fs.readdirSync(t.settings.tmpDir).length === 0);
  });
});
