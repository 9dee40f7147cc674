/**
 * Aadhaar masking and extraction on poor images as users send them (fixtures/aadhaar,
 * POOR_KINDS): small fronts stretched to a square (also of the older front with a barcode),
 * black borders, a few degrees of turn, SAMPLE marks, grey and faded, blurred, JPEG at quality
 * 40-60; attested photocopies of both sides photographed small and turned 90 degrees; a front
 * cut out in the middle of a phone scanner's A4 page under a rubber stamp. Per document:
 * masking's own judgement (document-problems.ts: every number's first eight digits covered and
 * black, nothing else covered, Tesseract at four rotations reads none of the covered digits),
 * and one decision per number: a number extraction reads on the same file is one masking
 * covered. Extraction's name, birth date and gender are held to floors below what the run
 * reaches (full run of 48: name 46, birth 41, gender 42; a card not recognised counts as three
 * misses), so that a regression fails; the target is 95% each, which the birth and gender of
 * the photocopies under a stamp do not reach yet. CI runs eight documents (two of each kind);
 * `PARDA_CORPUS=full` runs 48 and prints the figures.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadSettings } from '../../src/config/settings.js';
import { serviceContext } from '../../src/services/context.js';
import { closeEngines } from '../../src/services/engines.js';
import { POOR_KINDS, generateCorpus, type GeneratedDocument } from '../fixtures/aadhaar/index.js';
import { closeTesseract } from '../helpers/tesseract.js';
import { extractionProblem, judgeMasking } from './document-problems.js';
import { summarise, type DocumentScore } from './evaluate.js';

const FULL = process.env['PARDA_CORPUS'] === 'full';
const COUNT = FULL ? 48 : 8;
const SEED = 20261207;
/** Shares of documents whose field must be read exactly (eight documents in CI: coarser). */
const FLOORS = FULL
  ? { name: 0.9, birth: 0.8, gender: 0.8 }
  : { name: 0.75, birth: 0.6, gender: 0.6 };

/** `DD/MM/YYYY` as extraction returns it. */
const iso = (dob: string) => dob.split('/').reverse().join('-');

describe(`Aadhaar masking and extraction on poor images (${FULL ? 'full' : 'CI subset'})`, () => {
  const context = serviceContext(loadSettings({}));
  let corpus: GeneratedDocument[] = [];

  before(async () => {
    corpus = await generateCorpus({ seed: SEED, count: COUNT, kinds: POOR_KINDS });
  });
  after(async () => {
    await closeEngines();
    await closeTesseract();
  });

  it('masks every number, and extraction reads none that masking leaves', async (t) => {
    const scores: DocumentScore[] = [];
    const problems: string[] = [];
    const fields = { name: 0, birth: 0, gender: 0, of: 0 };
    let read = 0;
    for (const doc of corpus) {
      // A SAMPLE mark across the digits lies under their cover by design.
      const judged = await judgeMasking(context, doc, { foreignInk: false });
      scores.push(judged.score);
      problems.push(...judged.problems);
      // One decision per number is judged above (judgeMasking); the fields are scored here.
      const { extraction } = await extractionProblem(context, doc);
      const holder = doc.truth.holder;
      if (!holder) continue;
      fields.of += 1;
      if (!extraction) {
        // Every field missed; reported, and weighed by the floors below.
        t.diagnostic(`${doc.id}: extraction found no card`);
        continue;
      }
      if (extraction.fields.aadhaar_number) read += 1;
      if (extraction.fields.name === holder.name) fields.name += 1;
      const birth = holder.yearOnly
        ? extraction.fields.year_of_birth === Number(holder.yearOfBirth)
        : extraction.fields.date_of_birth === iso(holder.dob);
      if (birth) fields.birth += 1;
      if (extraction.fields.gender === holder.gender) fields.gender += 1;
    }
    const sum = summarise(scores);
    t.diagnostic(
      `${sum.numbersCovered}/${sum.numbers} numbers covered, last4 touched ${sum.lastFourHidden}, ` +
        `neighbour digits touched ${sum.neighboursTouched}, false regions ${sum.falseRegions}; ` +
        `extraction read ${read} numbers; fields of ${fields.of}: name ${fields.name}, ` +
        `birth ${fields.birth}, gender ${fields.gender}`,
    );
    for (const problem of problems) t.diagnostic(problem);
    assert.deepEqual(problems, []);
    for (const field of ['name', 'birth', 'gender'] as const) {
      assert.ok(
        fields[field] >= FLOORS[field] * fields.of,
        `${field}: ${fields[field]} of ${fields.of}`,
      );
    }
  });
});
