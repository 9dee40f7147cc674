/**
 * A PDF text layer that does not decode to what the page shows (glyphs mapped to the
 * private-use area, or to nothing but a few stray capitals) is not trusted: the page is read by
 * OCR as well, for extraction, masking and the global endpoints alike. The fixtures draw
 * exactly the same page as their clean twin; only the fonts' ToUnicode maps differ.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verhoeffCheckDigit } from '../fixtures/aadhaar/index.js';
import { garbleText, type Garbling } from '../fixtures/aadhaar/garbled-text.js';
import { mupdf } from '../../src/documents/mupdf.js';
import { readPdfPageOnce } from '../../src/documents/render.js';
import { encodeImage } from '../../src/documents/writers.js';
import { backends } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { pdfWithLines } from '../helpers/fixtures.js';
import { pagesOf } from '../helpers/global-redact.js';
import { fileUpload } from '../helpers/multipart.js';
import { closeTesseract, digitRuns } from '../helpers/tesseract.js';

const GARBLINGS: readonly Garbling[] = ['private-use', 'stray-capitals'];

const NAME = 'Ravi Kumar Verma';
const BASE = '23456789012';
const NUMBER = BASE + verhoeffCheckDigit(BASE);
const PRINTED = `${NUMBER.slice(0, 4)} ${NUMBER.slice(4, 8)} ${NUMBER.slice(8)}`;
const IBAN = 'GB82 WEST 1234 5698 7654 32';

/** A card front drawn as PDF text, as e-Aadhaar PDFs draw theirs. */
const cardFront = () =>
  pdfWithLines([
    [
      { text: 'Government of India', x: 80, y: 760, size: 14 },
      { text: NAME, x: 80, y: 720, size: 12 },
      { text: 'DOB: 12/03/1988', x: 80, y: 700, size: 12 },
      { text: 'MALE', x: 80, y: 680, size: 12 },
      { text: PRINTED, x: 100, y: 640, size: 18 },
    ],
  ]);

const statement = () =>
  pdfWithLines([
    [
      { text: 'Payment details', x: 80, y: 760, size: 14 },
      { text: 'Please pay to IBAN', x: 80, y: 720, size: 12 },
      { text: IBAN, x: 80, y: 700, size: 12 },
      { text: 'Thank you.', x: 80, y: 680, size: 12 },
    ],
  ]);

function withPdf<T>(bytes: Buffer, use: (doc: InstanceType<typeof mupdf.PDFDocument>) => T): T {
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF();
  if (!doc) throw new Error('not a PDF');
  try {
    return use(doc);
  } finally {
    doc.destroy();
  }
}

const pageOnce = (bytes: Buffer) => withPdf(bytes, (doc) => readPdfPageOnce(doc, 0, () => 72));

describe('A PDF text layer that does not match its page', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    const [sqlite] = backends();
    if (!sqlite) throw new Error('no sqlite backend');
    t = await startTestApp(sqlite);
    ({ key } = await t.newKey({ monthlyQuota: 1000 }));
  });
  after(async () => {
    await t.close();
    await closeTesseract();
  });

  const post = (url: string, bytes: Buffer) => {
    const form = fileUpload(bytes, 'card.pdf');
    return t.app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
  };

  it('a clean text page is trusted, and is not OCR’d', () => {
    assert.equal(pageOnce(cardFront()).content.implausibleLines, 0);
    assert.equal(pageOnce(statement()).content.implausibleLines, 0);
  });

  for (const garbling of GARBLINGS) {
    it(`${garbling}: the fixture draws the same page, its text layer hides the name`, () => {
      const clean = cardFront();
      const garbled = garbleText(clean, [NAME], garbling);
      const [before, after] = [pageOnce(clean), pageOnce(garbled)];
      assert.ok(before.textLayer.lines.some((l) => l.text === NAME));
      assert.ok(!after.textLayer.lines.some((l) => l.text.includes(NAME)));
      assert.ok(before.raster && after.raster);
      assert.ok(after.raster.pixels.equals(before.raster.pixels));
      assert.equal(after.content.implausibleLines, 1);
    });

    it(`${garbling}: /extract-aadhaar reads the name from the page, not from the text layer`, async () => {
      const res = await post('/api/v1/extract-aadhaar', garbleText(cardFront(), [NAME], garbling));
      assert.equal(res.statusCode, 200);
      const { fields } = res.json<{ fields: Record<string, unknown> }>();
      assert.equal(fields['name'], NAME);
      assert.equal(fields['aadhaar_last4'], NUMBER.slice(8));
      assert.equal(fields['date_of_birth'], '1988-03-12');
    });

    it(`${garbling}: /mask-aadhaar covers a number whose text layer is garbled`, async () => {
      const res = await post('/api/v1/mask-aadhaar', garbleText(cardFront(), [PRINTED], garbling));
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-masked-count'], '1');
      assert.equal(res.headers['x-unverified-count'], '0');
      const { images } = await pagesOf(res.rawPayload, true, 150);
      const [page] = images;
      assert.ok(page);
      const runs = await digitRuns(await encodeImage(page, 'png'));
      assert.ok(runs.includes('12031988'), `the reader reads the page: ${runs.join(',')}`);
      assert.ok(
        !runs.some((r) => r.includes(NUMBER.slice(0, 4)) || r.includes(NUMBER.slice(4, 8))),
      );
    });

    it(`${garbling}: /global/redact finds an IBAN whose text layer is garbled`, async () => {
      const res = await post('/api/v1/global/redact', garbleText(statement(), [IBAN], garbling));
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-entities-found'], '1');
      assert.equal(res.headers['x-entity-types'], 'IBAN');
    });
  }
});
