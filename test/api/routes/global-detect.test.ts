import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { mupdf } from '../../../src/documents/mupdf.js';
import { renderPdfPage } from '../../../src/documents/render.js';
import { imagesToPdf } from '../../../src/documents/writers.js';
import { simpleCard } from '../../helpers/cards.js';
import { backends } from '../../helpers/databases.js';
import { bmp, pdfWithLines, webp } from '../../helpers/fixtures.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { fileUpload, type Part } from '../../helpers/multipart.js';

const [sqlite] = backends();
if (!sqlite) throw new Error('no sqlite backend');

const IBAN = 'GB82 WEST 1234 5698 7654 32';
const CARD = '4111 1111 1111 1111';

interface Report {
  entities: {
    type: string;
    value_preview: string;
    page: number;
    confidence: number;
    validated: boolean;
    validation: string;
  }[];
  rejected_candidates: { type: string; reason: string; value_preview: string; page: number }[];
  summary: Record<string, number>;
  file_type: string;
  pages: number;
  metadata_present: string[];
  ocr?: {
    pages: number[];
    confidence: number | null;
    per_page: { page: number; confidence: number | null; lines: number }[];
    skipped_pages: number[];
    page_limit: number;
  };
  quota: { used: string; remaining: string };
}

/** A text-layer PDF with an author and a producer in its information dictionary. */
function statementPdf(): Buffer {
  const bytes = pdfWithLines([
    [
      { text: `Pay to IBAN ${IBAN} by 12 March.`, x: 72, y: 760 },
      { text: 'Questions: write to jane.doe@mailbox.co.uk', x: 72, y: 730 },
    ],
    [{ text: `Card on file: ${CARD}`, x: 72, y: 760 }],
  ]);
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF();
  assert.ok(doc);
  doc.setMetaData('info:Author', 'A. Clerk');
  doc.setMetaData('info:Producer', 'Statement Printer 2');
  const out = Buffer.from(doc.saveToBuffer('compress').asUint8Array());
  doc.destroy();
  return out;
}

/** Two image-only PDF pages, each a rendered page of text (a scan). */
async function scannedPdf(): Promise<Buffer> {
  const text = mupdf.Document.openDocument(
    pdfWithLines([
      [{ text: `IBAN ${IBAN}`, x: 72, y: 760, size: 16 }],
      [{ text: `Card ${CARD}`, x: 72, y: 760, size: 16 }],
    ]),
    'application/pdf',
  ).asPDF();
  assert.ok(text);
  const pages = [renderPdfPage(text, 0, 150), renderPdfPage(text, 1, 150)];
  text.destroy();
  return imagesToPdf(pages, [150, 150]);
}

describe('POST /api/v1/global/detect', () => {
  let t: TestApp;
  let key: string;
  let keyId: string;
  before(async () => {
    t = await startTestApp(sqlite, { env: { PARDA_MAX_OCR_PAGES: '1' } });
    ({ key, id: keyId } = await t.newKey({ monthlyQuota: 100 }));
  });
  after(() => t.close());

  const detect = (bytes: Buffer, filename: string, extra: Part[] = []) => {
    const form = fileUpload(bytes, filename, extra);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/global/detect',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
  };
  const used = async () => (await t.store.quota(await t.store.getKey(keyId))).used;

  it('reports a text PDF: types, previews, pages, rules, metadata; no values; charged once', async () => {
    const before = await used();
    const res = await detect(statementPdf(), 'statement.pdf');
    assert.equal(res.statusCode, 200, res.body);
    const report = res.json<Report>();
    assert.equal(res.headers['x-entities-found'], '3');
    assert.equal(report.file_type, 'PDF');
    assert.equal(report.pages, 2);
    assert.deepEqual(
      report.entities.map((e) => [e.type, e.page, e.value_preview]),
      [
        ['IBAN', 1, '******************5432'],
        ['EMAIL', 1, '******************o.uk'],
        ['PAYMENT_CARD', 2, '************1111'],
      ],
    );
    assert.ok(report.entities.every((e) => e.validated && e.validation && e.confidence > 0.5));
    assert.deepEqual(report.summary, { IBAN: 1, EMAIL: 1, PAYMENT_CARD: 1 });
    assert.ok(report.metadata_present.includes('author'), report.metadata_present.join());
    assert.ok(report.metadata_present.includes('producer'));
    assert.equal(report.ocr, undefined, 'no page needed OCR');
    assert.equal(await used(), before + 1);
    assert.deepEqual(report.quota, { used: String(before + 1), remaining: String(99 - before) });
    for (const value of ['WEST12345698', '4111111111111111', 'jane.doe']) {
      assert.ok(!res.body.replace(/ /g, '').includes(value), value);
    }
  });

  it('OCRs an image, says how confident it was, and reports candidates that failed their check', async () => {
    const card = await simpleCard({
      lines: ['Payment details', `IBAN ${IBAN}`, 'Card 4111 1111 1111 1112'],
    });
    const report = (await detect(card.bytes, 'details.png')).json<Report>();
    assert.equal(report.file_type, 'PNG');
    assert.deepEqual(report.summary, { IBAN: 1 });
    const { ocr } = report;
    assert.ok(ocr, "an image is OCR'd");
    assert.deepEqual(ocr.pages, [1]);
    assert.ok((ocr.confidence ?? 0) > 0.8);
    const card2 = report.rejected_candidates.find((r) => r.type === 'PAYMENT_CARD');
    assert.ok(card2, JSON.stringify(report.rejected_candidates));
    assert.equal(card2.reason, 'checksum');
    assert.equal(card2.value_preview, '************1112');
  });

  it('names EXIF and GPS metadata of a photo', async () => {
    const photo = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#ffffff' },
    })
      .withExif({
        IFD0: { Artist: 'Someone' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '12/1 58/1 0/1' },
      })
      .jpeg()
      .toBuffer();
    const res = await detect(photo, 'photo.jpg');
    assert.equal(res.statusCode, 200);
    const report = res.json<Report>();
    assert.ok(report.metadata_present.includes('exif'));
    assert.ok(report.metadata_present.includes('gps'));
  });

  it('OCRs up to the page limit and lists the pages it skipped; nothing found is not charged', async () => {
    const before = await used();
    const res = await detect(await scannedPdf(), 'scan.pdf', [
      { name: 'entity_types', value: 'PAYMENT_CARD' },
    ]);
    assert.equal(res.statusCode, 200, res.body);
    const report = res.json<Report>();
    // PARDA_MAX_OCR_PAGES=1: page 1 read (it holds no card), page 2 (the card) skipped.
    const { ocr } = report;
    assert.ok(ocr);
    assert.deepEqual(ocr.pages, [1]);
    assert.deepEqual(ocr.skipped_pages, [2]);
    assert.equal(ocr.page_limit, 1);
    assert.deepEqual(report.entities, []);
    assert.equal(res.headers['x-entities-found'], '0');
    assert.equal(await used(), before);
  });

  it('refuses an unknown type and a file of another kind', async () => {
    const pdf = statementPdf();
    const unknown = await detect(pdf, 's.pdf', [{ name: 'entity_types', value: 'IBAN,NOPE' }]);
    assert.equal(unknown.statusCode, 422);
    assert.equal(unknown.json<{ error: string }>().error, 'unknown_type');
    const gif = await detect(Buffer.from('GIF89a\u0001\u0000\u0001\u0000'), 'x.gif');
    assert.equal(gif.statusCode, 422);
    assert.equal(gif.json<{ error: string }>().error, 'unsupported_file_type');
  });

  it('reads every frame of a TIFF, and takes WEBP and BMP', async () => {
    const first = await simpleCard({ lines: [`IBAN ${IBAN}`] });
    const second = await simpleCard({ lines: ['Write to jane.doe@mailbox.co.uk'] });
    const frames = await sharp([first.bytes, second.bytes], { join: { animated: true } })
      .tiff()
      .toBuffer();
    const res = await detect(frames, 'scan.tiff');
    assert.equal(res.statusCode, 200, res.body);
    const report = res.json<Report>();
    assert.equal(report.file_type, 'TIFF');
    assert.equal(report.pages, 2);
    // PARDA_MAX_OCR_PAGES=1 here: the second frame is listed as skipped, not silently clean.
    assert.deepEqual(
      report.entities.map((e) => [e.type, e.page]),
      [['IBAN', 1]],
    );
    assert.deepEqual(report.ocr?.skipped_pages, [2]);
    for (const [bytes, type] of [
      [await webp({ width: 200, height: 100 }), 'WEBP'],
      [bmp(200, 100), 'BMP'],
    ] as const) {
      const other = await detect(bytes, 'image');
      assert.equal(other.statusCode, 200, other.body);
      assert.equal(other.json<Report>().file_type, type);
    }
  });
});

describe('POST /api/v1/global/detect, every frame within the page limit', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp(sqlite);
    ({ key } = await t.newKey({ monthlyQuota: 10 }));
  });
  after(() => t.close());

  it('finds values on the second frame of a TIFF', async () => {
    const first = await simpleCard({ lines: [`IBAN ${IBAN}`] });
    const second = await simpleCard({ lines: ['Write to jane.doe@mailbox.co.uk'] });
    const frames = await sharp([first.bytes, second.bytes], { join: { animated: true } })
      .tiff()
      .toBuffer();
    const form = fileUpload(frames, 'scan.tiff');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/global/detect',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
    const report = res.json<Report>();
    assert.deepEqual(
      report.entities.map((e) => [e.type, e.page]),
      [
        ['IBAN', 1],
        ['EMAIL', 2],
      ],
    );
    const { ocr } = report;
    assert.ok(ocr);
    assert.deepEqual(ocr.pages, [1, 2]);
    assert.deepEqual(ocr.skipped_pages, []);
  });
});
