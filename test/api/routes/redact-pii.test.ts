import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { mupdf } from '../../../src/documents/mupdf.js';
import { renderPdfPage } from '../../../src/documents/render.js';
import { blackShare, simpleCard, type Box } from '../../helpers/cards.js';
import { backends } from '../../helpers/databases.js';
import { pdfWithLines } from '../../helpers/fixtures.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { fileUpload, type Part } from '../../helpers/multipart.js';
import { generateRedactionDocument, imagePdf } from '../../fixtures/redaction/index.js';
import { samePixels } from '../../helpers/pixels.js';

const [sqlite] = backends();
if (!sqlite) throw new Error('no sqlite backend');

/** Every text character of a PDF, all pages, spaces removed. */
function pdfText(bytes: Buffer): string {
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  let text = '';
  for (let i = 0; i < doc.countPages(); i += 1) {
    const page = doc.loadPage(i);
    const structured = page.toStructuredText('preserve-whitespace');
    text += structured.asText();
    structured.destroy();
    page.destroy();
  }
  doc.destroy();
  return text.replace(/\s+/g, '');
}

/** Every box is (near) black in the image `bytes`. */
async function assertCovered(bytes: Buffer, boxes: readonly Box[]): Promise<void> {
  const { data, info } = await sharp(bytes)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (const box of boxes) {
    assert.ok(blackShare(data, info.width, info.channels, box) > 0.9, JSON.stringify(box));
  }
}

describe('POST /api/v1/redact-pii', () => {
  let t: TestApp;
  let key: string;
  let keyId: string;
  before(async () => {
    t = await startTestApp(sqlite, { routes: [] });
    ({ key, id: keyId } = await t.newKey({ monthlyQuota: 50 }));
  });
  after(() => t.close());

  const redact = (bytes: Buffer, filename: string, extra: Part[] = []) => {
    const form = fileUpload(bytes, filename, extra);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/redact-pii',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
  };
  const used = async () => (await t.store.quota(await t.store.getKey(keyId))).used;

  it('covers every digit of an Aadhaar number in an image, with honest headers', async () => {
    const card = await simpleCard({
      number: '4918 7362 5102',
      lines: ['Aadhaar letter', 'Mobile: +91 98765 43210', 'Invoice No. A1234567'],
    });
    const before = await used();
    const res = await redact(card.bytes, 'letter.png');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-redacted-count'], '2');
    assert.equal(res.headers['x-unverified-count'], '0');
    assert.equal(res.headers['x-residual-check'], 'passed');
    assert.deepEqual(JSON.parse(String(res.headers['x-redacted-types'])), {
      aadhaar: 1,
      phone_in: 1,
    });
    assert.equal(res.headers['content-type'], 'image/png');
    assert.match(String(res.headers['content-disposition']), /letter_redacted\.png/);
    await assertCovered(res.rawPayload, card.digits);
    assert.equal(await used(), before + 1);
  });

  it('covers a number whose check digit fails on a card, counted apart; not on an invoice', async () => {
    const card = await simpleCard({ number: '2345 6789 0123' }); // Government of India, DOB
    const res = await redact(card.bytes, 'worn.png');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-redacted-count'], '1');
    assert.equal(res.headers['x-unverified-count'], '1');
    assert.deepEqual(JSON.parse(String(res.headers['x-redacted-types'])), { aadhaar: 1 });
    await assertCovered(res.rawPayload, card.digits);
    const invoice = await simpleCard({ number: '2345 6789 0123', lines: ['Tax invoice'] });
    const plain = await redact(invoice.bytes, 'invoice.png');
    assert.equal(plain.headers['x-redacted-count'], '0');
    assert.equal(plain.headers['x-unverified-count'], '0');
  });

  it('covers a legacy XML QR code, on an image and on a scanned PDF page', async () => {
    // The XML QR holds the full number; it counts as one more aadhaar detection and region.
    const card = await simpleCard({ number: '2345 6789 0124', xmlQrUid: '234567890124' });
    assert.ok(card.qr);
    const qr = card.qr;
    const image = await redact(card.bytes, 'card.png');
    assert.equal(image.statusCode, 200, image.body);
    assert.equal(image.headers['x-redacted-count'], '2');
    assert.deepEqual(JSON.parse(String(image.headers['x-redacted-types'])), { aadhaar: 2 });
    const { data, info } = await sharp(image.rawPayload)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    assert.ok(blackShare(data, info.width, info.channels, qr) > 0.99);
    // The same card scanned into a PDF at 200 dpi: its page is read and searched at 200 dpi.
    const jpeg = await sharp(card.bytes).jpeg({ quality: 95 }).toBuffer();
    const scan = await redact(imagePdf([jpeg], 200), 'scan.pdf');
    assert.equal(scan.statusCode, 200, scan.body);
    assert.equal(scan.headers['x-redacted-count'], '2');
    assert.deepEqual(JSON.parse(String(scan.headers['x-redacted-types'])), { aadhaar: 2 });
    const doc = mupdf.Document.openDocument(scan.rawPayload, 'application/pdf').asPDF();
    assert.ok(doc);
    const page = renderPdfPage(doc, 0, 200);
    doc.destroy();
    assert.equal(page.width, info.width);
    assert.ok(blackShare(page.pixels, page.width, page.channels, qr) > 0.99);
  });

  it('rasterises a PDF: no text is left, and the identifiers are covered', async () => {
    const pdf = pdfWithLines([
      [
        { text: 'PAN: ACUPA7085R', x: 72, y: 760 },
        { text: 'GSTIN 27AAPFU0939F1ZV', x: 72, y: 730 },
      ],
      [{ text: 'Write to priya.sharma@example.in', x: 72, y: 760 }],
    ]);
    const res = await redact(pdf, 'statement.pdf');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-redacted-count'], '3');
    assert.deepEqual(JSON.parse(String(res.headers['x-redacted-types'])), {
      pan: 1,
      gstin: 1,
      email: 1,
    });
    const out = res.rawPayload;
    assert.equal(out.subarray(0, 5).toString(), '%PDF-');
    assert.equal(pdfText(out), '', 'a rasterised PDF has no text layer');
    // The page keeps its size, and the PAN's place is black.
    const doc = mupdf.Document.openDocument(out, 'application/pdf').asPDF();
    assert.ok(doc);
    assert.equal(doc.countPages(), 2);
    const page = renderPdfPage(doc, 0, 72);
    doc.destroy();
    assert.ok(Math.abs(page.width - 595) <= 1 && Math.abs(page.height - 842) <= 1);
    // "PAN: " is 5 characters of 14-pt Helvetica (~36 pt); the PAN runs on for ~85 pt.
    const panBox = { x: 72 + 40, y: 842 - 760 - 9, width: 70, height: 8 };
    assert.ok(blackShare(page.pixels, page.width, page.channels, panBox) > 0.9);
  });

  it('reports the ground truth of a generated document in its headers', async () => {
    // Three pages of letters, tables and forms with every default type and the negatives.
    const doc = await generateRedactionDocument('text-pdf', 20261124);
    const expected: Record<string, number> = {};
    for (const { item } of doc.truth) {
      if (item.role === 'value') expected[item.type] = (expected[item.type] ?? 0) + 1;
    }
    const values = Object.values(expected).reduce((a, b) => a + b, 0);
    const res = await redact(doc.bytes, doc.filename);
    assert.equal(res.statusCode, 200, res.body);
    // A text layer is read once: one region and one detection per value, negatives untouched.
    assert.equal(res.headers['x-redacted-count'], String(values));
    assert.deepEqual(JSON.parse(String(res.headers['x-redacted-types'])), expected);
    assert.equal(pdfText(res.rawPayload), '');
  });

  it('returns the same pixels, uncharged, when nothing is found; the types part narrows the search', async () => {
    const card = await simpleCard({ lines: ['Mobile: +91 98765 43210', 'Nothing else here'] });
    const before = await used();
    const res = await redact(card.bytes, 'note.png', [{ name: 'types', value: 'pan, email' }]);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-redacted-count'], '0');
    assert.deepEqual(JSON.parse(String(res.headers['x-redacted-types'])), {});
    assert.ok(await samePixels(res.rawPayload, card.bytes));
    assert.equal(await used(), before);
  });

  it('refuses a 200 x 200 inch page with 422 page_too_large (was a 500), uncharged', async () => {
    const doc = new mupdf.PDFDocument();
    doc.insertPage(-1, doc.addPage([0, 0, 14400, 14400], 0, doc.addObject({}), '0 0 72 72 re f'));
    const buffer = doc.saveToBuffer('');
    const bytes = Buffer.from(buffer.asUint8Array());
    buffer.destroy();
    doc.destroy();
    const before = await used();
    const res = await redact(bytes, 'poster.pdf');
    assert.equal(res.statusCode, 422, res.body);
    const body = res.json<Record<string, unknown>>();
    assert.deepEqual(Object.keys(body).sort(), ['error', 'message']);
    assert.equal(body['error'], 'page_too_large');
    assert.match(String(body['message']), /Page 1 .*200 x 200 inches.*PARDA_MAX_IMAGE_MEGAPIXELS/);
    assert.equal(await used(), before);
  });

  it('refuses an unknown type with 422 unknown_type, naming the valid ones', async () => {
    const card = await simpleCard({ lines: ['x'] });
    const res = await redact(card.bytes, 'note.png', [{ name: 'types', value: 'pan,ssn' }]);
    assert.equal(res.statusCode, 422);
    const body = res.json<{ error: string; message: string }>();
    assert.equal(body.error, 'unknown_type');
    assert.match(body.message, /ssn/);
    assert.match(body.message, /aadhaar, vid, pan, passport/);
  });
});
