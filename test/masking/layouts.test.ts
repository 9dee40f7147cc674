/**
 * Aadhaar masking on the newer layouts (fixtures/aadhaar, LAYOUT_KINDS): the PVC card's front,
 * with its Secure QR beside the holder and the issue and print dates turned along its edge, and
 * e-Aadhaar letters in Marathi, Tamil, Telugu, Kannada or Bengali with both cards below the cut
 * line (printed, photographed, or scanned into a PDF). Per document: every number's first eight
 * digits covered (geometrically and black in the output), no last-four digit, no digit and no
 * other print around a number covered, every number counted, the re-read passed; on images,
 * Tesseract at four rotations reads none of the covered digits. CI runs three documents of
 * each kind; `PARDA_CORPUS=full` runs 20 of each and prints the figures.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadSettings } from '../../src/config/settings.js';
import { serviceContext } from '../../src/services/context.js';
import { closeEngines } from '../../src/services/engines.js';
import { LAYOUT_KINDS, generateCorpus, type GeneratedDocument } from '../fixtures/aadhaar/index.js';
import { closeTesseract } from '../helpers/tesseract.js';
import { judgeMasking } from './document-problems.js';
import { summarise, type DocumentScore } from './evaluate.js';

const FULL = process.env['PARDA_CORPUS'] === 'full';
const PER_KIND = FULL ? 20 : 3;
const SEED = 20261127;

describe(`Aadhaar masking on PVC cards and regional e-Aadhaar letters (${FULL ? 'full' : 'CI subset'})`, () => {
  const context = serviceContext(loadSettings({}));
  let corpus: GeneratedDocument[] = [];

  before(async () => {
    corpus = await generateCorpus({
      seed: SEED,
      count: PER_KIND * LAYOUT_KINDS.length,
      kinds: LAYOUT_KINDS,
    });
  });
  after(async () => {
    await closeEngines();
    await closeTesseract();
  });

  it('covers the first eight digits of every number and nothing else; nothing reads after', async (t) => {
    const scores: DocumentScore[] = [];
    const problems: string[] = [];
    let readOnInput = 0;
    for (const doc of corpus) {
      const judged = await judgeMasking(context, doc, { foreignInk: true });
      scores.push(judged.score);
      problems.push(...judged.problems);
      readOnInput += judged.readOnInput;
    }
    for (const kind of LAYOUT_KINDS) {
      const sum = summarise(scores.filter((s) => s.kind === kind));
      t.diagnostic(
        `${kind}: ${sum.numbersCovered}/${sum.numbers} covered, last4 touched ${sum.lastFourHidden}, neighbour digits touched ${sum.neighboursTouched}, false regions ${sum.falseRegions}, XML QRs covered ${sum.xmlQrsCovered}/${sum.xmlQrs}`,
      );
    }
    t.diagnostic(`Tesseract read the number on ${readOnInput} inputs`);
    for (const problem of problems) t.diagnostic(problem);
    assert.ok(readOnInput > 0, 'the independent reader does read the inputs');
    assert.deepEqual(problems, []);
  });
});
