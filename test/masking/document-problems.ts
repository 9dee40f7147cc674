/** What is wrong with one masked generated document, one line per failure (the per-document tests). */
import type { ServiceContext } from '../../src/services/context.js';
import { maskAadhaarFile, type MaskResult } from '../../src/services/mask-aadhaar.js';
import type { GeneratedDocument } from '../fixtures/aadhaar/index.js';
import { scoreMask, type DocumentScore } from './evaluate.js';
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
 * and on images Tesseract at four rotations.
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
  if (score.numbersCovered < score.numbers) return { score, problems, readOnInput: 0 };
  problems.push(...(await checkPixels(doc, result)));
  const ink = options.foreignInk ? await foreignInkProblem(doc, result) : null;
  if (ink) problems.push(ink);
  if (doc.format === 'pdf') return { score, problems, readOnInput: 0 };
  const verdict = await independentReader(doc, result.bytes);
  problems.push(...verdict.leaks);
  return { score, problems, readOnInput: verdict.readOnInput };
}
