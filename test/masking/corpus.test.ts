/**
 * Aadhaar masking measured on the generated corpus. CI runs a fixed subset (two documents of
 * every kind); `PARDA_CORPUS=full` runs the whole corpus (20 of every kind) and prints the
 * figures. Ground truth is geometric (digit quads); an independent reader (Tesseract) and
 * PDF text extraction confirm on the outputs that covered digits are gone, and the blank-digit
 * control shows no other print under the covers (foreign-ink.ts). A card whose printed
 * number fails the check digit (a near miss) has it covered all the same and counted unverified.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadSettings } from '../../src/config/settings.js';
import { mupdf } from '../../src/documents/mupdf.js';
import { serviceContext } from '../../src/services/context.js';
import { closeEngines } from '../../src/services/engines.js';
import { maskAadhaarFile, type MaskResult } from '../../src/services/mask-aadhaar.js';
import { CORPUS_KINDS, generateCorpus, type GeneratedDocument } from '../fixtures/aadhaar/index.js';
import { closeTesseract } from '../helpers/tesseract.js';
import { scoreMask, summarise, type DocumentScore } from './evaluate.js';
import { extractionProblem, foreignInkProblem } from './document-problems.js';
import { independentReader } from './independent-reader.js';
import { checkPixels } from './output-pixels.js';

const FULL = process.env['PARDA_CORPUS'] === 'full';
const PER_KIND = FULL ? 20 : 2;
const SEED = 20261122;

/** PDF text of the output must not hold the masked digits (it may hold the last four). */
function checkPdfText(doc: GeneratedDocument, result: MaskResult): string[] {
  if (result.format !== 'pdf') return [];
  const pdf = mupdf.Document.openDocument(result.bytes, 'application/pdf');
  const digits: string[] = [];
  for (let i = 0; i < pdf.countPages(); i += 1) {
    const page = pdf.loadPage(i);
    const text = page.toStructuredText('preserve-whitespace');
    digits.push(text.asText().replace(/\D/g, ''));
    text.destroy();
    page.destroy();
  }
  pdf.destroy();
  const all = digits.join('|');
  return doc.truth.aadhaarNumbers
    .filter((n) => all.includes(n.slice(0, 8)))
    .map(() => `${doc.id}: masked digits left in the PDF text`);
}

describe(`Aadhaar masking on the generated corpus (${FULL ? 'full' : 'CI subset'})`, () => {
  const context = serviceContext(loadSettings({}));
  let corpus: GeneratedDocument[] = [];
  const scores: DocumentScore[] = [];
  const outputs = new Map<string, MaskResult>();

  before(async () => {
    corpus = await generateCorpus({ seed: SEED, count: PER_KIND * CORPUS_KINDS.length });
  });
  after(async () => {
    await closeEngines();
    await closeTesseract();
  });

  it('covers the first eight digits of at least 99% of numbers, every near miss on a card, no last four, nothing on negatives', async (t) => {
    for (const doc of corpus) {
      const result = await maskAadhaarFile(
        context,
        { bytes: doc.bytes, filename: doc.filename },
        { outputFormat: 'same', maskQr: 'xml' },
      );
      outputs.set(doc.id, result);
      scores.push(scoreMask(doc, result));
    }
    const summary = summarise(scores);
    t.diagnostic(JSON.stringify(summary));
    for (const kind of CORPUS_KINDS) {
      const of = summarise(scores.filter((s) => s.kind === kind));
      t.diagnostic(
        `${kind}: ${of.numbersCovered}/${of.numbers} covered, unverified ${of.unverifiedCovered}/${of.unverified}, last4 hidden ${of.lastFourHidden}, neighbour digits touched ${of.neighboursTouched}, false regions ${of.falseRegions}, negatives masked ${of.negativesMasked}/${of.negatives}`,
      );
    }
    const misses = scores.filter((s) => s.numbersCovered < s.numbers).map((s) => s.id);
    assert.ok(summary.numbers > 0);
    assert.ok(
      summary.coverageRate >= 0.99,
      `coverage ${summary.coverageRate}; missed in ${misses.join(', ')}`,
    );
    assert.ok(summary.unverified > 0, 'the corpus has near misses printed 4-4-4 on cards');
    assert.equal(
      summary.unverifiedCovered,
      summary.unverified,
      'every near miss on a card is covered',
    );
    assert.equal(
      summary.unverifiedMiscounted,
      0,
      'the unverified count is the near misses covered',
    );
    assert.equal(summary.lastFourHidden, 0, 'no last-four digit is covered');
    assert.equal(summary.neighboursTouched, 0, 'no digit of the text around a number is covered');
    assert.equal(summary.negativesMasked, 0, 'zero masks on negatives');
    assert.equal(summary.xmlQrsCovered, summary.xmlQrs, 'every XML QR is covered');
    assert.equal(summary.falseRegions, 0, 'no region covers anything but a number or a QR');
  });

  it('one decision per number: extraction reads no number that masking leaves', async (t) => {
    const problems: string[] = [];
    let read = 0;
    for (const doc of corpus) {
      const { problem, extraction } = await extractionProblem(context, doc);
      if (problem) problems.push(problem);
      if (extraction?.fields.aadhaar_number) read += 1;
    }
    t.diagnostic(`extraction read a number on ${read} of ${corpus.length} documents`);
    assert.ok(read > 0, 'extraction does read numbers');
    assert.deepEqual(problems, []);
  });

  it('leaves the masked digits black in the output pixels and absent from PDF text', async () => {
    const problems: string[] = [];
    for (const doc of corpus) {
      const result = outputs.get(doc.id);
      if (!result || result.maskedCount === 0) continue;
      const score = scores.find((s) => s.id === doc.id);
      if (score && score.numbersCovered < score.numbers) continue; // reported by the first test
      problems.push(...(await checkPixels(doc, result)), ...checkPdfText(doc, result));
    }
    assert.deepEqual(problems, []);
  });

  it('covers no print beside the numbers: no label, no line above or below, no next word', async () => {
    const touched: string[] = [];
    for (const doc of corpus) {
      const result = outputs.get(doc.id);
      if (!result || result.maskedCount === 0) continue;
      const problem = await foreignInkProblem(doc, result);
      if (problem) touched.push(problem);
    }
    assert.deepEqual(touched, []);
  });

  it('an independent reader (Tesseract, at four rotations) finds none of the covered digit runs', async (t) => {
    const images = corpus.filter((d) => d.format !== 'pdf' && d.truth.aadhaarNumbers.length > 0);
    let readOnInput = 0;
    const leaks: string[] = [];
    for (const doc of images.slice(0, FULL ? images.length : 8)) {
      const result = outputs.get(doc.id);
      if (!result) continue;
      const verdict = await independentReader(doc, result.bytes);
      readOnInput += verdict.readOnInput;
      leaks.push(...verdict.leaks);
    }
    t.diagnostic(`Tesseract read the number on ${readOnInput} inputs`);
    assert.ok(
      readOnInput >= 2,
      'the independent reader does read the inputs, so its silence on the outputs means something',
    );
    assert.deepEqual(leaks, []);
  });
});
