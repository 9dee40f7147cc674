import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { mupdf } from '../../../src/documents/mupdf.js';
import { backends } from '../../helpers/databases.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { blackShare, simpleCard } from '../../helpers/cards.js';
import * as fixtures from '../../helpers/fixtures.js';
import { fileUpload, type Part } from '../../helpers/multipart.js';
import { samePixels } from '../../helpers/pixels.js';

const [sqlite] = backends();
const NUMBER = '2345 6789 0124';

async function decode(bytes: Buffer) {
  const { data, info } = await sharp(bytes)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, channels: info.channels };
}

describe('POST /api/v1/mask-aadhaar', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    if (!sqlite) throw new Error('no sqlite backend');
    t = await startTestApp(sqlite, { routes: [] });
    ({ key } = await t.newKey({ monthlyQuota: 50 }));
  });
  after(() => t.close());

  const mask = (bytes: Buffer, filename: string, extra: Part[] = []) => {
    const form = fileUpload(bytes, filename, extra);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/mask-aadhaar',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
  };

  it('covers the first eight digits of a card photo and leaves the last four readable', async () => {
    const card = await simpleCard({ number: NUMBER, format: 'jpeg' });
    const res = await mask(card.bytes, 'card photo.jpg');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-masked-count'], '1');
    assert.equal(res.headers['x-unverified-count'], '0');
    assert.equal(res.headers['x-residual-check'], 'passed');
    assert.equal(res.headers['content-type'], 'image/jpeg');
    assert.match(String(res.headers['content-disposition']), /filename="card_photo_masked\.jpg"/);
    assert.equal(res.headers['x-quota-used'], '1');
    const image = await decode(res.rawPayload);
    card.digits.forEach((box, i) => {
      const share = blackShare(image.pixels, image.width, image.channels, box);
      if (i < 8) assert.ok(share > 0.97, `digit ${i + 1} covered (${share.toFixed(2)})`);
      else assert.ok(share < 0.7, `digit ${i + 1} visible (${share.toFixed(2)})`);
    });
  });

  it('fails closed on a card: a number whose check digit fails is covered and counted apart', async () => {
    // A worn print or a misread digit: on a card nothing else stands in the 4-4-4 shape.
    const card = await simpleCard({ number: '2345 6789 0123' });
    const res = await mask(card.bytes, 'worn.png');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-masked-count'], '1');
    assert.equal(res.headers['x-unverified-count'], '1');
    const image = await decode(res.rawPayload);
    card.digits.forEach((box, i) => {
      const share = blackShare(image.pixels, image.width, image.channels, box);
      if (i < 8) assert.ok(share > 0.97, `digit ${i + 1} covered (${share.toFixed(2)})`);
      else assert.ok(share < 0.7, `digit ${i + 1} visible (${share.toFixed(2)})`);
    });
  });

  it('returns the same pixels rewritten, X-Masked-Count 0 and no charge when nothing is found', async () => {
    const card = await simpleCard({ lines: ['Invoice 2345 6789 0123', 'Mobile: +91 98765 43210'] });
    const before = await t.store.quota(
      await t.store.getKey((await t.store.listKeys())[0]?.id ?? ''),
    );
    const res = await mask(card.bytes, 'invoice.png');
    assert.equal(res.statusCode, 200);
    // Not a card and no Aadhaar label: the failing check digit decides, the invoice number stays.
    assert.equal(res.headers['x-masked-count'], '0');
    assert.equal(res.headers['x-unverified-count'], '0');
    assert.equal(res.headers['x-residual-check'], 'none');
    assert.ok(await samePixels(res.rawPayload, card.bytes), 'the same pixels');
    assert.equal(res.headers['x-quota-used'], String(before.used));
  });

  it('covers a legacy XML QR code, which holds the full number', async () => {
    const card = await simpleCard({ number: NUMBER, xmlQrUid: NUMBER.replace(/ /g, '') });
    const res = await mask(card.bytes, 'back.png');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-masked-count'], '2');
    assert.equal(res.headers['content-type'], 'image/png');
    const image = await decode(res.rawPayload);
    assert.ok(card.qr);
    assert.ok(blackShare(image.pixels, image.width, image.channels, card.qr) > 0.99);
  });

  it('removes the digits from a PDF text layer and saves it clean', async () => {
    const pdf = fixtures.pdfWithLines([
      [{ text: 'Name: Test Person', x: 72, y: 760 }],
      [{ text: `Aadhaar No.: ${NUMBER}`, x: 72, y: 700, size: 18 }],
    ]);
    const res = await mask(pdf, 'letter.pdf');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-masked-count'], '1');
    assert.equal(res.headers['content-type'], 'application/pdf');
    const doc = mupdf.Document.openDocument(res.rawPayload, 'application/pdf');
    const text = [0, 1]
      .map((i) => {
        const page = doc.loadPage(i);
        const stext = page.toStructuredText('preserve-whitespace');
        const out = stext.asText();
        stext.destroy();
        page.destroy();
        return out;
      })
      .join('\n');
    doc.destroy();
    assert.doesNotMatch(text, /2345|6789/);
    assert.match(text, /0124/);
    assert.match(text, /Test Person/);
  });

  it('turns a page into an image when the number will not leave its content stream', async () => {
    // Page 2 carries the number as the /ActualText of glyphs drawn elsewhere on the line.
    const pdf = fixtures.pdfWithContents([
      'BT /F1 14 Tf 72 760 Td (Name: Test Person) Tj ET',
      `/Span <</ActualText (Aadhaar No.: ${NUMBER})>> BDC ` +
        'BT /F1 18 Tf 72 700 Td (Aadhaar No.: 0000 0000 0000) Tj ET EMC',
    ]);
    const res = await mask(pdf, 'letter.pdf');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-masked-count'], '1');
    assert.equal(res.headers['x-rasterised-pages'], '2');
    const doc = mupdf.Document.openDocument(res.rawPayload, 'application/pdf');
    const text = (i: number) =>
      doc.loadPage(i).toStructuredText('preserve-whitespace').asText().trim();
    assert.equal(text(0), 'Name: Test Person', 'the other page keeps its text');
    assert.equal(text(1), '', 'the rasterised page holds no text');
    doc.destroy();
  });

  it('converts with output_format and refuses unknown options', async () => {
    const card = await simpleCard({ number: NUMBER });
    const asPdf = await mask(card.bytes, 'card.png', [{ name: 'output_format', value: 'pdf' }]);
    assert.equal(asPdf.statusCode, 200);
    assert.equal(asPdf.headers['content-type'], 'application/pdf');
    assert.match(String(asPdf.headers['content-disposition']), /card_masked\.pdf/);
    const asJpg = await mask(card.bytes, 'card.png', [{ name: 'output_format', value: 'jpg' }]);
    assert.equal(asJpg.headers['content-type'], 'image/jpeg');
    const bad = await mask(card.bytes, 'card.png', [{ name: 'output_format', value: 'gif' }]);
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.json<{ error: string }>().error, 'invalid_request');
    const twoPages = fixtures.pdfWithLines([[{ text: NUMBER, x: 72, y: 700 }], []]);
    const jpgOfTwo = await mask(twoPages, 'two.pdf', [{ name: 'output_format', value: 'jpg' }]);
    assert.equal(jpgOfTwo.statusCode, 422);
  });

  it('refuses files that are not JPEG, PNG or PDF', async () => {
    const res = await mask(await fixtures.webp(), 'card.webp');
    assert.equal(res.statusCode, 422);
    assert.equal(res.json<{ error: string }>().error, 'unsupported_file_type');
  });
});
