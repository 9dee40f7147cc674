import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../../helpers/databases.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { simpleCard } from '../../helpers/cards.js';
import * as fixtures from '../../helpers/fixtures.js';
import { multipart, type Part } from '../../helpers/multipart.js';
import { unzip } from '../../helpers/unzip.js';
import { samePixels } from '../../helpers/pixels.js';

const [sqlite] = backends();

describe('POST /api/v1/bulk/mask-aadhaar', () => {
  let t: TestApp;
  before(async () => {
    if (!sqlite) throw new Error('no sqlite backend');
    t = await startTestApp(sqlite, { routes: [], env: { PARDA_MAX_BATCH_FILES: '6' } });
  });
  after(() => t.close());

  const bulk = (key: string, files: { name: string; bytes: Buffer }[], extra: Part[] = []) => {
    const form = multipart([
      ...files.map((f) => ({ name: 'files', filename: f.name, content: f.bytes })),
      ...extra,
    ]);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/bulk/mask-aadhaar',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
  };

  it('masks a mixed batch, fails only the bad files, and charges only the masked ones', async () => {
    const { key, id } = await t.newKey({ monthlyQuota: 10 });
    const card = await simpleCard({ number: '2345 6789 0124', format: 'jpeg' });
    const blank = await simpleCard({ lines: ['Nothing to see here'] });
    const jpeg = await fixtures.jpeg({ width: 300, height: 200 });
    // A valid number, and one whose check digit fails after an Aadhaar label (a misprint or
    // a misread): covered too, and counted apart.
    const pdf = fixtures.pdfWithLines([
      [
        { text: 'Aadhaar 2345 6789 0124', x: 72, y: 700 },
        { text: 'Aadhaar 2345 6789 0123', x: 72, y: 600 },
      ],
    ]);
    const res = await bulk(key, [
      { name: 'front.jpg', bytes: card.bytes },
      { name: 'notes.png', bytes: blank.bytes },
      { name: 'broken.jpg', bytes: jpeg.subarray(0, jpeg.length / 2) },
      { name: 'anim.gif', bytes: Buffer.from('GIF89a fake gif') },
      { name: 'letter.pdf', bytes: pdf },
    ]);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/zip');
    assert.equal(res.headers['x-quota-used'], '2');
    const files = await unzip(res.rawPayload);
    const manifest: unknown = JSON.parse(files.get('manifest.json')?.toString() ?? 'null');
    assert.deepEqual(manifest, {
      submitted: 5,
      masked: 2,
      no_number_found: 1,
      failed: 2,
      documents_charged: 2,
      results: [
        {
          index: 1,
          filename: 'front.jpg',
          status: 'masked',
          masked_count: 1,
          unverified_count: 0,
          residual_check: 'passed',
          output: '001_front_masked.jpg',
        },
        {
          index: 2,
          filename: 'notes.png',
          status: 'no_number_found',
          masked_count: 0,
          unverified_count: 0,
          residual_check: 'none',
          output: '002_notes_masked.png',
        },
        {
          index: 3,
          filename: 'broken.jpg',
          status: 'error',
          masked_count: 0,
          unverified_count: 0,
          output: null,
          error: 'truncated_file',
          message: (manifest as { results: { message?: string }[] }).results[2]?.message,
        },
        {
          index: 4,
          filename: 'anim.gif',
          status: 'error',
          masked_count: 0,
          unverified_count: 0,
          output: null,
          error: 'unsupported_file_type',
          message: (manifest as { results: { message?: string }[] }).results[3]?.message,
        },
        {
          index: 5,
          filename: 'letter.pdf',
          status: 'masked',
          masked_count: 2,
          unverified_count: 1,
          residual_check: 'passed',
          output: '005_letter_masked.pdf',
        },
      ],
    });
    assert.deepEqual([...files.keys()].sort(), [
      '001_front_masked.jpg',
      '002_notes_masked.png',
      '005_letter_masked.pdf',
      'manifest.json',
    ]);
    // The interface's bulk manifest, field by field: its counts are integers named as it names
    // them, and every output is the zero-padded index, the base name, `_masked`, the extension.
    const shape = manifest as Record<string, unknown> & { results: Record<string, unknown>[] };
    for (const field of ['submitted', 'masked', 'no_number_found', 'failed', 'documents_charged']) {
      assert.ok(Number.isInteger(shape[field]), `${field} is an integer`);
    }
    for (const row of shape.results) {
      assert.ok(Number.isInteger(row['index']) && Number.isInteger(row['masked_count']));
      assert.ok(['masked', 'no_number_found', 'error'].includes(String(row['status'])));
      const base = String(row['filename']).replace(/\.[^.]+$/, '');
      const index = String(row['index']).padStart(3, '0');
      if (row['status'] === 'error') assert.equal(row['output'], null);
      else assert.match(String(row['output']), new RegExp(`^${index}_${base}_masked\\.[a-z]+$`));
    }
    const notes = files.get('002_notes_masked.png');
    assert.ok(
      notes && (await samePixels(notes, blank.bytes)),
      'the same pixels when nothing found',
    );
    assert.equal((await t.store.quota(await t.store.getKey(id))).used, 2);
  });

  it('checks the quota for the whole batch before processing', async () => {
    const { key, id } = await t.newKey({ monthlyQuota: 2 });
    const card = await simpleCard({ number: '2345 6789 0124' });
    const three = [1, 2, 3].map((i) => ({ name: `c${i}.png`, bytes: card.bytes }));
    const res = await bulk(key, three);
    assert.equal(res.statusCode, 429);
    assert.deepEqual(res.json(), {
      error: 'quota_exceeded',
      message: res.json<{ message: string }>().message,
      quota: { limit: 2, used: 0, remaining: 2 },
    });
    assert.equal((await t.store.quota(await t.store.getKey(id))).used, 0);
  });

  it('refuses a batch larger than the configured limit', async () => {
    const { key } = await t.newKey();
    const png = await fixtures.png();
    const res = await bulk(
      key,
      Array.from({ length: 7 }, (_, i) => ({ name: `${i}.png`, bytes: png })),
    );
    assert.equal(res.statusCode, 422);
    assert.equal(res.json<{ error: string }>().error, 'too_many_files');
  });
});

describe('POST /api/v1/bulk/anonymise', () => {
  let t: TestApp;
  before(async () => {
    if (!sqlite) throw new Error('no sqlite backend');
    t = await startTestApp(sqlite, { routes: [] });
  });
  after(() => t.close());

  const anonymise = (key: string, files: { name: string; bytes: Buffer }[], extra: Part[] = []) => {
    const form = multipart([
      ...files.map((f) => ({ name: 'files', filename: f.name, content: f.bytes })),
      ...extra,
    ]);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/bulk/anonymise',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
  };

  it('redacts a mixed batch with the chosen types; the manifest counts types per file', async () => {
    const { key } = await t.newKey({ monthlyQuota: 10 });
    const note = await simpleCard({ lines: ['PAN: ACUPA7085R', 'Mail priya.sharma@example.in'] });
    const blank = await simpleCard({ lines: ['Nothing to see here'] });
    const pdf = fixtures.pdfWithLines([[{ text: 'GSTIN 27AAPFU0939F1ZV', x: 72, y: 700 }]]);
    const res = await anonymise(
      key,
      [
        { name: 'note.png', bytes: note.bytes },
        { name: 'blank.png', bytes: blank.bytes },
        { name: 'bad.gif', bytes: Buffer.from('GIF89a fake gif') },
        { name: 'gst.pdf', bytes: pdf },
      ],
      [{ name: 'types', value: 'pan,gstin' }],
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-quota-used'], '2');
    const files = await unzip(res.rawPayload);
    const manifest: unknown = JSON.parse(files.get('manifest.json')?.toString() ?? 'null');
    assert.deepEqual(manifest, {
      submitted: 4,
      redacted: 2,
      nothing_found: 1,
      failed: 1,
      documents_charged: 2,
      results: [
        {
          index: 1,
          filename: 'note.png',
          status: 'redacted',
          redacted_count: 1,
          unverified_count: 0,
          residual_check: 'passed',
          types: { pan: 1 },
          output: '001_note_redacted.png',
        },
        {
          index: 2,
          filename: 'blank.png',
          status: 'nothing_found',
          redacted_count: 0,
          unverified_count: 0,
          residual_check: 'none',
          types: {},
          output: '002_blank_redacted.png',
        },
        {
          index: 3,
          filename: 'bad.gif',
          status: 'error',
          redacted_count: 0,
          unverified_count: 0,
          types: {},
          output: null,
          error: 'unsupported_file_type',
          message: (manifest as { results: { message?: string }[] }).results[2]?.message,
        },
        {
          index: 4,
          filename: 'gst.pdf',
          status: 'redacted',
          redacted_count: 1,
          unverified_count: 0,
          residual_check: 'none', // its GSTIN came from the text layer: exact boxes, no re-read
          types: { gstin: 1 },
          output: '004_gst_redacted.pdf',
        },
      ],
    });
    assert.deepEqual([...files.keys()].sort(), [
      '001_note_redacted.png',
      '002_blank_redacted.png',
      '004_gst_redacted.pdf',
      'manifest.json',
    ]);
    const blankOut = files.get('002_blank_redacted.png');
    assert.ok(blankOut && (await samePixels(blankOut, blank.bytes)));
  });

  it('refuses an unknown type for the whole batch, before any work', async () => {
    const { key } = await t.newKey({ monthlyQuota: 10 });
    const blank = await simpleCard({ lines: ['x'] });
    const res = await anonymise(
      key,
      [{ name: 'a.png', bytes: blank.bytes }],
      [{ name: 'types', value: 'aadhar' }],
    );
    assert.equal(res.statusCode, 422);
    assert.equal(res.json<{ error: string }>().error, 'unknown_type');
  });
});
