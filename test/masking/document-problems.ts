/** What is wrong with one masked generated document, one line per failure (the per-document tests). */
import type { ServiceContext } from '../../src/services/context.js';
import { NoDocumentError } from '../../src/services/errors.js';
import { extractAadhaarFile, type AadhaarExtraction } from '../../src/services/extract-aadhaar.js';
import { maskAadhaarFile, type MaskResult } from '../../src/services/mask-aadhaar.js';
import type { GeneratedDocument } from '../fixtures/aadhaar/index.js';
import { scoreMask, unverifiedNumbers, type DocumentScore } from './evaluate.js';
import { FOREIGN_INK_ALLOWED, foreignInk } from './foreign-ink.js';
import { independentReader } from './independent-reader.js';
import { checkPixels } from './output-pixels.js';

/** What is wrong with one document's masking, one line per failure. */
export function problemsOf(
  doc: GeneratedDocument,
  score: DocumentScore,
  residual: string,
): string[] {
  const label = `${doc.id} [${doc.tags.filter((t) => !t.startsWith('lang-')).join(' ')}]`;
  const problems: string[] = [];
  if (score.numbersCovered < score.numbers)
    problems.push(`${label}: ${score.numbersCovered}/${score.numbers} numbers covered`);
  if (score.lastFourHidden > 0)
    problems.push(`${label}: ${score.lastFourHidden} last-four digits covered`);
  if (score.maskedCount < score.numbers)
    problems.push(`${label}: counted ${score.maskedCount} of ${score.numbers} numbers`);
  if (score.neighboursTouched > 0)
    problems.push(`${label}: ${score.neighboursTouched} neighbouring digits covered`);
  if (score.falseRegions > 0) problems.push(`${label}: ${score.falseRegions} false regions`);
  if (residual !== 'passed') problems.push(`${label}: residual check ${residual}`);
  return problems;
}

/** A line when the covers hold print other than the covered digits (foreign-ink.ts), or null. */
export async function foreignInkProblem(
  doc: GeneratedDocument,
  result: MaskResult,
): Promise<string | null> {
  const ink = await foreignInk(doc, result);
  return ink.some((n) => n > FOREIGN_INK_ALLOWED)
    ? `${doc.id}: covers hold ${ink.join(', ')} px of other print`
    : null;
}

/**
 * One decision per number: what `/extract-aadhaar` (number revealed) makes of `doc`, and a
 * problem when the number it reads is none of those masking is held to cover on the same file
 * (the truth's numbers and the near misses printed 4-4-4 on a card, each judged covered by the
 * caller): a number masking would leave.
 */
export async function extractionProblem(
  context: ServiceContext,
  doc: GeneratedDocument,
): Promise<{ problem: string | null; extraction: AadhaarExtraction | null }> {
  let extraction: AadhaarExtraction;
  try {
    extraction = await extractAadhaarFile(
      context,
      { bytes: doc.bytes, filename: doc.filename },
      { includeConfidence: false, reveal: true },
    );
  } catch (error) {
    if (error instanceof NoDocumentError) return { problem: null, extraction: null };
    throw error;
  }
  const read = extraction.fields.aadhaar_number?.replace(/ /g, '') ?? null;
  // The number as printed, or misread in a digit or two (a worn card's near miss read once
  // more): either way one of the numbers masking covers, where the print is.
  const held = [
    ...doc.truth.aadhaarNumbers,
    ...doc.truth.pages.flatMap((page) =>
      unverifiedNumbers(page).map((n) => n.text.replace(/ /g, '')),
    ),
  ];
  const covered = (number: string) =>
    held.some((truth) => Array.from(truth).filter((digit, i) => digit !== number[i]).length <= 2);
  const problem =
    read !== null && /^[0-9]{12}$/.test(read) && !covered(read)
      ? `${doc.id}: extraction reads a number masking is not held to cover`
      : null;
  return { problem, extraction };
}

/** One masked document judged: its score, every problem found, and what Tesseract read first. */
export interface MaskJudgement {
  readonly score: DocumentScore;
  readonly problems: string[];
  /** Numbers the independent reader read on the input (0 for PDFs, which it does not read). */
  readonly readOnInput: number;
}

/**
 * Masks `doc` (`/mask-aadhaar` defaults) and checks it every way the per-document tests do:
 * the score, the output's pixels, other print under the covers (unless `foreignInk` is false),
 * one decision per number with extraction, and on images Tesseract at four rotations.
 */
export async function judgeMasking(
  context: ServiceContext,
  doc: GeneratedDocument,
  options: { readonly foreignInk: boolean },
): Promise<MaskJudgement> {
  const result = await maskAadhaarFile(
    context,
    { bytes: doc.bytes, filename: doc.filename },
    { outputFormat: 'same', maskQr: 'xml' },
  );
  const score = scoreMask(doc, result);
  const problems = problemsOf(doc, score, result.residualCheck);
  const { problem } = await extractionProblem(context, doc);
  if (problem) problems.push(problem);
  if (score.numbersCovered < score.numbers) return { score, problems, readOnInput: 0 };
  problems.push(...(await checkPixels(doc, result)));
  const ink = options.foreignInk ? await foreignInkProblem(doc, result) : null;
  if (ink) problems.push(ink);
  if (doc.format === 'pdf') return { score, problems, readOnInput: 0 };
  const verdict = await independentReader(doc, result.bytes);
  problems.push(...verdict.leaks);
  return { score, problems, readOnInput: verdict.readOnInput };
}
