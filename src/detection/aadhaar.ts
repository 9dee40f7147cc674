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
import { isValidAadhaar, AADHAAR_LENGTH } from '../identifiers/in/aadhaar.js';
import type { PageText, TextChar, TextLayer, TextLine } from '../domain/text-layer.js';
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

/**
 * `uncertain`: a letter or `?` the reader put where a digit stands (a smudge, a stamp's ink, a
 * worn print). It never makes a number valid; where the page fails closed, a 4-4-4 group with
 * one or two of them is still an Aadhaar number to cover.
 */
type CharClass = 'digit' | 'confusable' | 'uncertain' | 'separator' | 'other';

/** At most this many uncertain characters in a number covered without a check digit. */
const MAX_UNCERTAIN = 2;

function classify(text: string): CharClass {
  if (/^[0-9]$/.test(text)) return 'digit';
  if (text in CONFUSABLE) return 'confusable';
  if (/^[A-Za-z?]$/.test(text)) return 'uncertain';
  if (text === ' ' || text === '-') return 'separator';
  return 'other';
}

/** A character that may stand in a number's digit cluster, without and with uncertain ones. */
const inCertainNumber = (c: CharClass | undefined) => c === 'digit' || c === 'confusable';
const inUncertainNumber = (c: CharClass | undefined) => inCertainNumber(c) || c === 'uncertain';

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
function runsOf(chars: readonly TextChar[], withUncertain: boolean): Run[] {
  const inNumber = withUncertain ? inUncertainNumber : inCertainNumber;
  const classes = chars.map((c) => classify(c.text));
  // A cluster of confusables without real digits is a word ("NO", "IS"), not a number.
  const clusters: Cluster[] = [];
  for (let i = 0; i < chars.length;) {
    if (!inNumber(classes[i])) {
      i += 1;
      continue;
    }
    const indexes: number[] = [];
    let realDigits = 0;
    while (i < chars.length && inNumber(classes[i])) {
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

/** Where the last match of a pattern ends in a text, or -1. */
function lastMatchEnd(pattern: RegExp, text: string): number {
  let end = -1;
  for (const m of text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))) {
    end = m.index + m[0].length;
  }
  return end;
}

/**
 * The label nearest before a number: 'aadhaar', the reason another number's label gives, or
 * null. The nearest wins, so that "Phone 98765 43210, Aadhaar 2345 6789 0123" keeps its
 * Aadhaar number and "Aadhaar ... For reference, Ref. No. 8723 9068 3817" its reference.
 */
function nearestLabel(text: string): string | null {
  let label: string | null = null;
  let nearest = -1;
  for (const [pattern, name] of [[AADHAAR_LABEL, 'aadhaar'], ...OTHER_NUMBER_CONTEXT] as const) {
    const end = lastMatchEnd(pattern, text);
    if (end > nearest) [label, nearest] = [name, end];
  }
  return label;
}

function contextReason(before: string): string | null {
  if (/\+\s*$/.test(before)) return 'context_phone';
  const label = nearestLabel(before);
  return label === 'aadhaar' ? null : label;
}

/** Why a candidate's digits are no valid Aadhaar number, or null when they are. */
function invalidity(digits: string, repairs: number): string | null {
  if (repairs > MAX_REPAIRS) return 'too_many_ocr_repairs';
  if (isValidAadhaar(digits)) return null;
  return /^[01]/.test(digits) ? 'first_digit' : 'checksum';
}

interface LineContext {
  readonly page: number;
  readonly source: PageText['source'];
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
  const taken = new Set<number>();
  // First the digits as read; then, where the page fails closed, groups with one or two
  // uncertain characters ("2345 67A9 0123") that no number of the first pass holds. Two passes,
  // so that letters glued to a number ("Ph9876 5432 1098") never lengthen its first group.
  for (const withUncertain of [false, true]) {
    // Rejections are counted for the digits as read only (the second pass re-reads the same).
    const reject = (reason: string) => {
      if (!withUncertain) rejected.push({ type: TYPE, page, reason });
    };
    for (const run of runsOf(line.chars, withUncertain)) {
      const indexes = run.clusters.flatMap((c) => c.indexes);
      if (indexes.length !== AADHAAR_LENGTH || indexes.some((i) => taken.has(i))) continue;
      const chars = indexes.map((i) => line.chars[i]).filter((c) => c !== undefined);
      const uncertain = chars.filter((c) => classify(c.text) === 'uncertain').length;
      if (withUncertain && (uncertain === 0 || uncertain > MAX_UNCERTAIN)) continue;
      // The number as read, its separators included.
      const printed = line.chars
        .slice(indexes[0], (indexes.at(-1) ?? 0) + 1)
        .map((c) => c.text)
        .join('');
      const grouping = run.clusters.map((c) => c.indexes.length).join(',');
      if (!ACCEPTED_GROUPINGS.has(grouping)) {
        reject('grouping');
        continue;
      }
      const repairs = chars.filter((c) => classify(c.text) === 'confusable').length;
      const digits = chars
        .map((c) => CONFUSABLE[c.text] ?? (classify(c.text) === 'uncertain' ? '?' : c.text))
        .join('');
      const before = textBeforeRun(line, run.start);
      const otherNumber = contextReason(before);
      if (otherNumber) {
        reject(otherNumber);
        continue;
      }
      const invalid = uncertain > 0 ? 'uncertain_digits' : invalidity(digits, repairs);
      // A label on the line above counts when no other number's label stands nearer ("Ref."
      // at the end of that line, "No." before the number).
      const failClosed =
        grouping === '4,4,4' &&
        (context.aadhaarPage || nearestLabel(`${context.above}\n${before}`) === 'aadhaar');
      if (invalid && !failClosed) {
        reject(invalid);
        continue;
      }
      indexes.forEach((i) => taken.add(i));
      into.push({
        type: TYPE,
        page,
        value: digits,
        charQuads: chars.map((c) => c.quad),
        orientation: line.orientation,
        confidence: chars.reduce((sum, c) => sum + c.confidence, 0) / chars.length,
        rule: invalid ? UNVERIFIED_RULE : repairs > 0 ? 'verhoeff_after_ocr_repair' : 'verhoeff',
        source: context.source,
        printed,
      });
    }
  }
}

export function findAadhaarOnPage(page: PageText): FindResult {
  const findings: Finding[] = [];
  const rejected: RejectedCandidate[] = [];
  const aadhaarPage = isAadhaarDocumentPage(page);
  page.lines.forEach((line, index) => {
    const above = page.lines[lineAbove(page.lines, index) ?? -1]?.text ?? '';
    const context = { page: page.page, source: page.source, aadhaarPage, above };
    findInLine(line, context, findings, rejected);
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
