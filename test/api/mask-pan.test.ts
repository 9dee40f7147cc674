import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { Quad } from '../../src/domain/geometry.js';
import { backends } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { blackShare, simpleCard } from '../helpers/cards.js';
import { fileUpload, multipart } from '../helpers/multipart.js';
import { unzip } from '../helpers/unzip.js';
import { generateCard, type GeneratedCard } from '../fixtures/cards/index.js';
import { samePixels } from '../helpers/pixels.js';

const [sqlite] = backends();

function boxOf(quad: Quad) {
  const xs = quad.map((p) => p.x);
  const ys = quad.map((p) => p.y);
  const [x, y] = [Math.min(...xs), Math.min(...ys)];
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

describe('POST /api/v1/mask-pan and /api/v1/bulk/mask-pan', () => {
  let t: TestApp;
  let key: string;
  let card: GeneratedCard;
  before(async () => {
    if (!sqlite) throw new Error('no sqlite backend');
    t = await startTestApp(sqlite, { routes: [] });
    ({ key } = await t.newKey({ monthlyQuota: 50 }));
    card = await generateCard('pan-new-scan', 3, { lossless: true });
  });
  after(() => t.close());

  it('covers the middle seven characters and leaves the first two and the last readable', async () => {
    const truth = card.truth;
    if (truth.documentType !== 'pan') throw new Error('not a PAN card');
    const form = fileUpload(card.bytes, 'pan card.png');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/mask-pan',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(Number(res.headers['x-masked-count']) >= 1);
    assert.equal(res.headers['content-type'], 'image/png');
    assert.match(String(res.headers['content-disposition']), /filename="pan_card_masked\.png"/);
    assert.equal(res.headers['x-quota-used'], '1');
    const { data, info } = await sharp(res.rawPayload)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    truth.panChars.forEach((quad, i) => {
      const share = blackShare(data, info.width, info.channels, boxOf(quad));
      if (i >= 2 && i <= 8) assert.ok(share > 0.97, `char ${i + 1} covered (${share.toFixed(2)})`);
      else assert.ok(share < 0.7, `char ${i + 1} visible (${share.toFixed(2)})`);
    });
    // The PAN appears in no header.
    assert.ok(!JSON.stringify(res.headers).includes(truth.pan));
  });

  it('returns the same pixels uncharged when no PAN is found', async () => {
    const letter = await simpleCard({ lines: ['Order ABCD-1234', 'Thank you'] });
    const form = fileUpload(letter.bytes, 'letter.png');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/mask-pan',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-masked-count'], '0');
    assert.ok(await samePixels(res.rawPayload, letter.bytes));
  });

  it('masks a batch into a ZIP with the manifest, failing only the bad file', async () => {
    const { key: batchKey } = await t.newKey({ monthlyQuota: 10 });
    const form = multipart([
      { name: 'files', filename: 'pan.png', content: card.bytes },
      { name: 'files', filename: 'broken.pdf', content: Buffer.from('%PDF-1.7 broken') },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/bulk/mask-pan',
      headers: { 'x-api-key': batchKey, 'content-type': form.contentType },
      payload: form.body,
    });
    assert.equal(res.statusCode, 200, res.body);
    const files = await unzip(res.rawPayload);
    const manifest = JSON.parse(files.get('manifest.json')?.toString() ?? '{}') as {
      submitted: number;
      masked: number;
      failed: number;
      documents_charged: number;
      results: { status: string; output: string | null }[];
    };
    assert.equal(manifest.submitted, 2);
    assert.equal(manifest.masked, 1);
    assert.equal(manifest.failed, 1);
    assert.equal(manifest.documents_charged, 1);
    assert.equal(manifest.results[0]?.output, '001_pan_masked.png');
    assert.equal(manifest.results[1]?.status, 'error');
    assert.ok(files.has('001_pan_masked.png'));
    assert.equal(res.headers['x-quota-used'], '1');
  });
});
