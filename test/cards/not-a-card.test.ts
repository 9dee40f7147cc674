/**
 * Extraction is as strict about what is not a card as it is generous with poor photos of real
 * ones: every non-card document of every generator (letters, tables and forms full of Indian
 * identifiers; statements of global identifiers; invoices and plain letters; the repository's
 * own samples that are not cards) is `422 no_document_detected` on both extraction endpoints,
 * and not charged. CI takes one seed of each; `PARDA_CORPUS=full` takes four.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateDocument } from '../fixtures/aadhaar/index.js';
import { generateCard } from '../fixtures/cards/index.js';
import { generateGlobalDocument } from '../fixtures/global/documents.js';
import { generateRedactionDocument } from '../fixtures/redaction/index.js';
import { backends } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { fileUpload } from '../helpers/multipart.js';
import { pdfWithLines } from '../helpers/fixtures.js';

const FULL = process.env['PARDA_CORPUS'] === 'full';
/** 2026 is the seed `make samples` writes `scanned-letters.pdf` with. */
const SEEDS = FULL ? [2026, 11, 12, 13] : [2026];

interface NotACard {
  readonly id: string;
  readonly filename: string;
  readonly bytes: Buffer;
}

const EXTENSION = { pdf: 'pdf', png: 'png', jpeg: 'jpg' } as const;
const variantFile = (variant: string) =>
  variant.endsWith('pdf') ? 'pdf' : EXTENSION[variant as 'png' | 'jpeg'];

async function notCards(seed: number): Promise<NotACard[]> {
  const out: NotACard[] = [];
  for (const variant of ['text-pdf', 'scanned-pdf', 'png', 'jpeg'] as const) {
    const letters = await generateRedactionDocument(variant, seed);
    out.push({
      id: `redaction/${variant}/${seed}`,
      filename: `letters.${variantFile(variant)}`,
      bytes: letters.bytes,
    });
    const statement = await generateGlobalDocument(variant, seed);
    out.push({
      id: `global/${variant}/${seed}`,
      filename: `statement.${variantFile(variant)}`,
      bytes: statement.bytes,
    });
  }
  for (const kind of ['negative-invoice', 'negative-plain'] as const) {
    const doc = await generateDocument(kind, seed);
    out.push({
      id: `aadhaar/${kind}/${seed}`,
      filename: `${kind}.${doc.format}`,
      bytes: doc.bytes,
    });
  }
  const other = await generateCard('not-a-card', seed);
  out.push({
    id: `cards/not-a-card/${seed}`,
    filename: `other.${other.format}`,
    bytes: other.bytes,
  });
  return out;
}

describe(`Extraction refuses what is not a card (${FULL ? 'full' : 'CI subset'})`, () => {
  let t: TestApp;
  let key: string;
  let keyId: string;
  const documents: NotACard[] = [];
  before(async () => {
    const [sqlite] = backends();
    if (!sqlite) throw new Error('no sqlite backend');
    t = await startTestApp(sqlite);
    ({ key, id: keyId } = await t.newKey({ monthlyQuota: 1000 }));
    for (const seed of SEEDS) documents.push(...(await notCards(seed)));
    // A typed letter that names every field a card prints, in sentences.
    documents.push({
      id: 'typed-letter',
      filename: 'letter.pdf',
      bytes: pdfWithLines([
        [
          'Dear Sir, your date of birth and the address on file were confirmed for the',
          'female applicant named in Aadhaar 2345 6789 0124 by the Unique Identification',
          'Authority of India last year, and PAN ABCPE1234F was checked on the same day.',
          'Your Permanent Account Number with the Income Tax Department is on our file.',
        ].map((text, i) => ({ text, x: 60, y: 760 - i * 20, size: 11 })),
      ]),
    });
  });
  after(() => t.close());

  for (const route of ['/api/v1/extract-aadhaar', '/api/v1/extract-pan']) {
    it(`${route}: 422 no_document_detected, not charged`, async () => {
      const used = async () => (await t.store.quota(await t.store.getKey(keyId))).used;
      const before = await used();
      const wrong: string[] = [];
      for (const doc of documents) {
        const form = fileUpload(doc.bytes, doc.filename);
        const res = await t.app.inject({
          method: 'POST',
          url: route,
          headers: { 'x-api-key': key, 'content-type': form.contentType },
          payload: form.body,
        });
        const error = res.statusCode === 422 ? res.json<{ error: string }>().error : '';
        if (error !== 'no_document_detected') wrong.push(`${doc.id}: ${res.statusCode} ${error}`);
      }
      assert.deepEqual(wrong, []);
      assert.equal(await used(), before);
    });
  }
});
