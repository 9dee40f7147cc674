/**
 * The independent reader's verdict on one masked document: Tesseract reads the input once and
 * the output at four rotations, and no covered run of digits may read on the output.
 */
import type { GeneratedDocument } from '../fixtures/aadhaar/index.js';
import { digitRuns, digitRunsTurned } from '../helpers/tesseract.js';

export interface ReaderVerdict {
  /** Numbers Tesseract read on the input (so that its silence on the output means something). */
  readonly readOnInput: number;
  /** One line per covered run read on the output. */
  readonly leaks: string[];
}

export async function independentReader(
  doc: GeneratedDocument,
  output: Buffer,
): Promise<ReaderVerdict> {
  let readOnInput = 0;
  const leaks: string[] = [];
  const before = (await digitRuns(doc.bytes)).join('|');
  // The output at four rotations: a covered run must not read whichever way up.
  const afterRuns = (await digitRunsTurned(output)).join('|');
  for (const number of doc.truth.aadhaarNumbers) {
    const groups = [number.slice(0, 4), number.slice(4, 8)];
    if (before.includes(number.slice(0, 8)) || groups.every((g) => before.includes(g)))
      readOnInput += 1;
    if (afterRuns.includes(number.slice(0, 8))) leaks.push(`${doc.id}: first eight digits`);
    // A covered group counts as leaked only if it does not also occur elsewhere on the input.
    const elsewhere = before.split(number).join('').split(number.slice(0, 8)).join('');
    // A group of one or two distinct digits ("5000") turns up in the noise Tesseract reads
    // off the black covers themselves ("070500000"): only the first eight together count then.
    const telling = (g: string) => new Set(g).size > 2;
    for (const g of groups.filter(telling))
      if (afterRuns.includes(g) && !elsewhere.includes(g))
        leaks.push(`${doc.id}: group ${g.length}`);
  }
  return { readOnInput, leaks };
}
