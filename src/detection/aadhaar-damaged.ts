/**
 * Aadhaar numbers misread because something lies over or right after them: a pen line or a
 * stamp across the digits read as an extra "1" or as a "/" between two groups, a digit lost
 * under a stamp, the first bar of a barcode glued to the last group ("4343 9335 69621"). The
 * finder (aadhaar.ts) wants twelve digits in a known grouping and never sees these. On an
 * Aadhaar card or letter, where nothing else is printed that way, they fail closed like a failed
 * check digit (aadhaar-context.ts): reported with rule `unverified`, so that every digit that
 * may be one of the first eight is covered and counted apart.
 */
import type { Quad } from '../domain/geometry.js';
import type { PageText, TextChar, TextLine } from '../domain/text-layer.js';
import { isValidAadhaar } from '../identifiers/in/aadhaar.js';
import { isAadhaarDocumentPage, UNVERIFIED_RULE } from './aadhaar-context.js';
import type { Finding } from './types.js';

const TYPE = 'aadhaar';
/** One digit lost or one stroke read as a digit: 11 to 13 digits. */
const MIN_DIGITS = 11;
const MAX_DIGITS = 13;
/**
 * What the finder reads as one number: groups joined by spaces or hyphens in these shapes. A
 * twelve-digit run of another shape, or joined by other marks, is left to this module.
 */
const FINDER_SEPARATOR = /^[ -]$/;
const FINDER_GROUPINGS = new Set(['4,4,4', '12', '4,8', '8,4']);
/** Labels of the other long numbers an Aadhaar page prints (VID, enrolment, mobile). */
const OTHER_NUMBER = /\b(vid|enrol?ment|eid|mobile|mob|phone|ph|tel)\b|मोबाइल|नामांकन/i;

type Kind = 'digit' | 'letter' | 'separator';

function kindOf(text: string): Kind {
  if (/^[0-9]$/.test(text)) return 'digit';
  // A letter is a word, never a stroke read over the digits: it ends the number.
  return /\p{L}/u.test(text) ? 'letter' : 'separator';
}

/** Digit clusters joined by one or two separators (spaces, or marks a stroke was read as). */
interface Run {
  /** Indexes of the run's digits in the line's chars. */
  readonly digits: number[];
  /** After how many of the run's digits a separator stands. */
  readonly boundaries: number[];
  /** Whether a separator other than a space or a hyphen joins two clusters. */
  marked: boolean;
  readonly start: number;
}

function runsOf(chars: readonly TextChar[]): Run[] {
  const runs: Run[] = [];
  let run: Run | null = null;
  let pending: number[] = [];
  for (const [i, char] of chars.entries()) {
    const kind = kindOf(char.text);
    if (kind === 'separator') {
      pending.push(i);
      continue;
    }
    // Three separators or a letter end the run.
    if (run && (kind === 'letter' || pending.length > 2)) {
      runs.push(run);
      run = null;
    }
    if (kind === 'digit') {
      if (run && pending.length > 0) {
        run.boundaries.push(run.digits.length);
        run.marked ||= pending.some((p) => !FINDER_SEPARATOR.test(chars[p]?.text ?? ''));
      }
      run ??= { digits: [], boundaries: [], marked: false, start: i };
      run.digits.push(i);
    }
    pending = [];
  }
  if (run) runs.push(run);
  return runs;
}

/** Whether the finder already read this run as one number (found or deliberately rejected). */
function finderShape(run: Run): boolean {
  if (run.digits.length !== 12 || run.marked) return false;
  const sizes = [...run.boundaries, 12].map((b, i, all) => b - (i === 0 ? 0 : (all[i - 1] ?? 0)));
  return FINDER_GROUPINGS.has(sizes.join(','));
}

/**
 * How many of the run's digits to cover. Where a group boundary falls after seven to nine
 * digits with three to five left, it is where the last printed group starts: everything before
 * it (the first eight digits, however misread). Without one, all but the last four digits read,
 * or the last three when a digit was lost (one of the last four read may be the eighth).
 */
function coveredCount(run: Run): number {
  const n = run.digits.length;
  const starts = run.boundaries.filter((b) => b >= 7 && b <= 9 && n - b >= 3 && n - b <= 5);
  const last = starts.at(-1);
  return last ?? n - Math.min(4, n - 8);
}

/** A quad from the start of `a` to the end of `b` along their line. */
const across = (a: Quad, b: Quad): Quad => [a[0], b[1], b[2], a[3]];

/**
 * `chars` as exactly `count` quads spanning the same characters, with a digit or `?` for each:
 * the leading ones joined into one `?` when there are too many, the last quad repeated as `?`
 * when too few (covering a repeat changes nothing).
 */
function fitted(chars: readonly TextChar[], count: number): { quads: Quad[]; text: string } {
  const first = chars[0];
  const last = chars.at(-1);
  if (!first || !last) return { quads: [], text: '' };
  if (chars.length > count) {
    const rest = chars.slice(chars.length - count + 1);
    const joined = across(first.quad, (chars[chars.length - count] ?? first).quad);
    const text = rest.map((c) => c.text).join('');
    return { quads: [joined, ...rest.map((c) => c.quad)], text: `?${text}` };
  }
  const missing = count - chars.length;
  return {
    quads: [...chars.map((c) => c.quad), ...Array<Quad>(missing).fill(last.quad)],
    text: chars.map((c) => c.text).join('') + '?'.repeat(missing),
  };
}

/**
 * Thirteen digits run together, the first twelve a valid number and the last a 1: the first bar
 * of the barcode that older fronts print right after the number, read as a digit. The first
 * eight are then known, and the ninth stays readable (a check digit that holds makes a digit
 * lost or added before it unlikely, and the bar is where barcodes stand).
 */
function barcodeGlued(run: Run, chars: readonly TextChar[]): boolean {
  const digits = chars.map((c) => c.text).join('');
  return (
    run.boundaries.length === 0 &&
    digits.length === 13 &&
    digits.endsWith('1') &&
    isValidAadhaar(digits.slice(0, 12))
  );
}

/**
 * The run as a twelve-character finding whose first eight quads span the digits to cover and
 * whose last four span the rest (the masking target covers characters 0 to 7).
 */
function damagedFinding(line: TextLine, run: Run, page: PageText): Finding {
  const chars = run.digits.map((i) => line.chars[i]).filter((c) => c !== undefined);
  const covered = barcodeGlued(run, chars) ? 8 : coveredCount(run);
  const hidden = fitted(chars.slice(0, covered), 8);
  const shown = fitted(chars.slice(covered), 4);
  return {
    type: TYPE,
    page: page.page,
    value: hidden.text + shown.text,
    charQuads: [...hidden.quads, ...shown.quads],
    orientation: line.orientation,
    confidence: chars.reduce((sum, c) => sum + c.confidence, 0) / Math.max(1, chars.length),
    rule: UNVERIFIED_RULE,
    source: page.source,
    printed: chars.map((c) => c.text).join(''),
  };
}

/**
 * Damaged numbers on an OCR'd Aadhaar page (a text layer is never misread), besides those the
 * finder reported in `found` (their characters are not looked at again).
 */
export function findDamagedAadhaar(page: PageText, found: readonly Finding[]): Finding[] {
  if (page.source !== 'ocr' || !isAadhaarDocumentPage(page)) return [];
  const taken = new Set(found.flatMap((f) => f.charQuads));
  const out: Finding[] = [];
  for (const line of page.lines) {
    for (const run of runsOf(line.chars)) {
      const n = run.digits.length;
      if (n < MIN_DIGITS || n > MAX_DIGITS || finderShape(run)) continue;
      if (run.digits.some((i) => taken.has(line.chars[i]?.quad as Quad))) continue;
      const before = line.chars
        .slice(0, run.start)
        .map((c) => c.text)
        .join('');
      if (OTHER_NUMBER.test(before) || /\+\s*$/.test(before)) continue;
      out.push(damagedFinding(line, run, page));
    }
  }
  return out;
}
