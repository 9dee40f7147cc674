/**
 * Finds Aadhaar numbers in a text layer: twelve digits grouped 4-4-4 or run together (an OCR
 * that drops one of the spaces gives 4-8 or 8-4, also accepted), first digit 2-9,
 * Verhoeff-valid. OCR confusions (O/0, I/l/1, S/5, B/8) are repaired only when the repaired
 * number validates. Phone numbers, dates, order or invoice numbers and 12-digit windows of
 * longer numbers (a 16-digit VID) are never reported.
 *
 * Fails closed where a number can only be an Aadhaar number (aadhaar-context.ts): on an Aadhaar
 * card or letter, and after an Aadhaar label, a 4-4-4 group that fails the check digit (or needs
 * more repairs than allowed) is reported too, with rule `unverified`, to be covered and counted
 * apart.
 */
import { isValidAadhaar, AADHAAR_LENGTH } from '../identifiers/aadhaar.js';
import type { PageText, TextChar, TextLayer, TextLine } from '../ocr/types.js';
import { AADHAAR_LABEL, isAadhaarDocumentPage, UNVERIFIED_RULE } from './aadhaar-context.js';
import { lineAbove } from './line-above.js';
import type { FindResult, Finding, RejectedCandidate } from './types.js';

const TYPE = 'aadhaar';
const MAX_REPAIRS = 2;

/** Characters an OCR engine confuses with digits, and the digit each stands for. */
const CONFUSABLE: Readonly<Record<string, string>> = {
  O: '0',
  o: '0',
  D: '0',
  I: '1',
  l: '1',
  '|': '1',
  i: '1',
  S: '5',
  s: '5',
  B: '8',
};

const ACCEPTED_GROUPINGS = new Set(['4,4,4', '12', '4,8', '8,4']);

/**
 * Words that, before a number on the same line, say it is something else. A 12-digit
 * Verhoeff-valid string is no proof of an Aadhaar number (1 in 10 random strings passes).
 */
const OTHER_NUMBER_CONTEXT: readonly [RegExp, string][] = [
  [/\b(mobile|mob|phone|ph|tel|telephone|fax|whatsapp|contact)\b|मोबाइल|फ़ोन|फोन/i, 'context_phone'],
  [/\b(order|invoice|inv|bill|receipt|txn|transaction|utr|ref|reference|ticket|pnr|awb|tracking|policy|claim)\b/i, 'context_other_number'],
  [/\b(account|a\/c|acct|ifsc)\b/i, 'context_account'],
  [/#\s*$/, 'context_other_number'],
]; // prettier-ignore

type CharClass = 'digit' | 'confusable' | 'separator' | 'other';

function classify(text: string): CharClass {
  if (/^[0-9]$/.test(text)) return 'digit';
  if (text in CONFUSABLE) return 'confusable';
  if (text === ' ' || text === '-') return 'separator';
  return 'other';
}

interface Cluster {
  /** Indexes into the line's chars. */
  readonly indexes: number[];
  readonly realDigits: number;
}

interface Run {
  readonly clusters: Cluster[];
  /** Index of the first char of the run in the line. */
  readonly start: number;
}

/** Splits a line into runs of digit clusters joined by single separators (two spaces allowed). */
function runsOf(chars: readonly TextChar[]): Run[] {
  const classes = chars.map((c) => classify(c.text));
  // A cluster of confusables without real digits is a word ("NO", "IS"), not a number.
  const clusters: Cluster[] = [];
  for (let i = 0; i < chars.length;) {
    if (classes[i] !== 'digit' && classes[i] !== 'confusable') {
      i += 1;
      continue;
    }
    const indexes: number[] = [];
    let realDigits = 0;
    while (i < chars.length && (classes[i] === 'digit' || classes[i] === 'confusable')) {
      if (classes[i] === 'digit') realDigits += 1;
      indexes.push(i);
      i += 1;
    }
    if (realDigits * 2 >= indexes.length) clusters.push({ indexes, realDigits });
  }
  const runs: Run[] = [];
  let current: Cluster[] = [];
  const flush = () => {
    const first = current[0]?.indexes[0];
    if (first !== undefined) runs.push({ clusters: current, start: first });
    current = [];
  };
  for (const cluster of clusters) {
    const previous = current.at(-1);
    const previousEnd = previous?.indexes.at(-1);
    const start = cluster.indexes[0] ?? 0;
    const between = previousEnd === undefined ? null : classes.slice(previousEnd + 1, start);
    const joined =
      between !== null &&
      between.length >= 1 &&
      between.length <= 2 &&
      between.every((c) => c === 'separator');
    if (!joined) flush();
    current.push(cluster);
  }
  flush();
  return runs;
}

function textBeforeRun(line: TextLine, runStart: number): string {
  return line.chars
    .slice(0, runStart)
    .map((c) => c.text)
    .join('');
}

function contextReason(before: string): string | null {
  if (/\+\s*$/.test(before)) return 'context_phone';
  for (const [pattern, reason] of OTHER_NUMBER_CONTEXT) if (pattern.test(before)) return reason;
  return null;
}

/** Why a candidate's digits are no valid Aadhaar number, or null when they are. */
function invalidity(digits: string, repairs: number): string | null {
  if (repairs > MAX_REPAIRS) return 'too_many_ocr_repairs';
  if (isValidAadhaar(digits)) return null;
  return /^[01]/.test(digits) ? 'first_digit' : 'checksum';
}

interface LineContext {
  readonly page: number;
  /** The page is an Aadhaar card or letter (aadhaar-context.ts). */
  readonly aadhaarPage: boolean;
  /** The text of the line right above, where a label may stand. */
  readonly above: string;
}

function findInLine(
  line: TextLine,
  context: LineContext,
  into: Finding[],
  rejected: RejectedCandidate[],
) {
  const { page } = context;
  for (const run of runsOf(line.chars)) {
    const indexes = run.clusters.flatMap((c) => c.indexes);
    if (indexes.length !== AADHAAR_LENGTH) continue;
    const grouping = run.clusters.map((c) => c.indexes.length).join(',');
    if (!ACCEPTED_GROUPINGS.has(grouping)) {
      rejected.push({ type: TYPE, page, reason: 'grouping' });
      continue;
    }
    const chars = indexes.map((i) => line.chars[i]).filter((c) => c !== undefined);
    const repairs = chars.filter((c) => classify(c.text) === 'confusable').length;
    const digits = chars.map((c) => CONFUSABLE[c.text] ?? c.text).join('');
    const before = textBeforeRun(line, run.start);
    const otherNumber = contextReason(before);
    if (otherNumber) {
      rejected.push({ type: TYPE, page, reason: otherNumber });
      continue;
    }
    const invalid = invalidity(digits, repairs);
    const failClosed =
      grouping === '4,4,4' &&
      (context.aadhaarPage || AADHAAR_LABEL.test(before) || AADHAAR_LABEL.test(context.above));
    if (invalid && !failClosed) {
      rejected.push({ type: TYPE, page, reason: invalid });
      continue;
    }
    into.push({
      type: TYPE,
      page,
      value: digits,
      charQuads: chars.map((c) => c.quad),
      orientation: line.orientation,
      confidence: chars.reduce((sum, c) => sum + c.confidence, 0) / chars.length,
      rule: invalid ? UNVERIFIED_RULE : repairs > 0 ? 'verhoeff_after_ocr_repair' : 'verhoeff',
    });
  }
}

export function findAadhaarOnPage(page: PageText): FindResult {
  const findings: Finding[] = [];
  const rejected: RejectedCandidate[] = [];
  const aadhaarPage = isAadhaarDocumentPage(page);
  page.lines.forEach((line, index) => {
    const above = page.lines[lineAbove(page.lines, index) ?? -1]?.text ?? '';
    findInLine(line, { page: page.page, aadhaarPage, above }, findings, rejected);
  });
  return { findings, rejected };
}

export function findAadhaar(layer: TextLayer): FindResult {
  const results = layer.pages.map(findAadhaarOnPage);
  return {
    findings: results.flatMap((r) => r.findings),
    rejected: results.flatMap((r) => r.rejected),
  };
}
