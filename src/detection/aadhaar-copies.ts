/**
 * Copies of a number already found on an Aadhaar page that the reader got only in part: a card
 * prints its number on the front and the back, a letter in large type and again on the tear-off
 * card, and on a photocopy a pen line or a signature across one copy hides some of its digits
 * ("154732536" for 8711 5473 2536: the first group lost under the pen) or fuses the line with
 * the mark (the line's boxes then reach the lines above and below). What was found elsewhere on
 * the page says what these are; the services read them again (aadhaar-copies.ts there).
 */
import type { Quad } from '../domain/geometry.js';
import type { PageText, TextChar, TextLine } from '../domain/text-layer.js';
import { UNVERIFIED_RULE } from './aadhaar-context.js';
import type { Finding } from './types.js';

/** Fewest digits of a line that make it a partial copy: a pincode (6) rarely matches by chance. */
const MIN_MATCHED = 5;
/** Digits misread per this many read, at most (a pen over a digit turns it into another). */
const DIGITS_PER_MISREAD = 5;
/**
 * A finding's characters this many times taller than their pitch were read from a line fused
 * with a mark: a clean bold number measures 1.7 to 1.8 (the box holds the line's margin), the
 * two fused lines seen 2.2 and 2.4.
 */
const FUSED_HEIGHT_TO_PITCH = 2;

const distance = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.hypot(a.x - b.x, a.y - b.y);

/** The distance from one digit to the next along the finding (group gaps spread over all). */
export function pitchOf(finding: Finding): number {
  const first = finding.charQuads[0];
  const last = finding.charQuads.at(-1);
  if (!first || !last || finding.charQuads.length < 2) return 0;
  return distance(first[0], last[1]) / finding.charQuads.length;
}

/** Whether the finding's line was fused with a mark across it (its boxes are too tall). */
export function fusedWithMark(finding: Finding): boolean {
  const first = finding.charQuads[0];
  const pitch = pitchOf(finding);
  return (
    first !== undefined && pitch > 0 && distance(first[0], first[3]) > FUSED_HEIGHT_TO_PITCH * pitch
  );
}

/** A line holding part of a known number: its digits, and where in the number they start. */
export interface PartialCopy {
  readonly line: TextLine;
  readonly value: string;
  /** The line's digits, in order. */
  readonly digits: readonly TextChar[];
  /** The position in `value` of the first of `digits`. */
  readonly offset: number;
}

/** Where `digits` fits in `value` with at most `allowed` digits different, or -1. */
function bestOffset(digits: string, value: string, allowed: number): number {
  for (let offset = 0; offset + digits.length <= value.length; offset += 1) {
    let misses = 0;
    for (let i = 0; i < digits.length && misses <= allowed; i += 1) {
      if (digits[i] !== value[offset + i]) misses += 1;
    }
    if (misses <= allowed) return offset;
  }
  return -1;
}

/**
 * Lines of `lines` that no finding took, whose digits (five to eleven of them) are a window of
 * one of the verified numbers `found`, give or take one misread digit in five.
 */
export function partialCopies(
  lines: readonly TextLine[],
  found: readonly Finding[],
): PartialCopy[] {
  const verified = found.filter((f) => f.rule !== UNVERIFIED_RULE && /^\d{12}$/.test(f.value));
  const values = [...new Set(verified.map((f) => f.value))];
  const taken = new Set<Quad>(found.flatMap((f) => f.charQuads));
  const out: PartialCopy[] = [];
  for (const line of lines) {
    if (line.chars.some((c) => taken.has(c.quad))) continue;
    const digits = line.chars.filter((c) => /^[0-9]$/.test(c.text));
    if (digits.length < MIN_MATCHED || digits.length >= 12) continue;
    const text = digits.map((c) => c.text).join('');
    const allowed = Math.floor(digits.length / DIGITS_PER_MISREAD);
    for (const value of values) {
      const offset = bestOffset(text, value, allowed);
      if (offset < 0) continue;
      out.push({ line, value, digits, offset });
      break;
    }
  }
  return out;
}

/** The rule of a copy read as a number found elsewhere on the page, give or take a digit. */
export const COPY_RULE = 'copy_of_found_number';

/**
 * The first line of `page` whose twelve digits are `value` give or take one misread digit in
 * five, as a finding of `value` over those digits; null when none is. For a second reading of a
 * damaged copy: a stroke left over from a mark may still turn one digit into another, and the
 * number it copies is known.
 */
export function copyOnPage(page: PageText, value: string): Finding | null {
  for (const line of page.lines) {
    const digits = line.chars.filter((c) => /^[0-9]$/.test(c.text));
    if (digits.length !== value.length) continue;
    const text = digits.map((c) => c.text).join('');
    if (bestOffset(text, value, Math.floor(text.length / DIGITS_PER_MISREAD)) !== 0) continue;
    return {
      type: 'aadhaar',
      page: page.page,
      value,
      charQuads: digits.map((c) => c.quad),
      orientation: line.orientation,
      confidence: digits.reduce((sum, c) => sum + c.confidence, 0) / digits.length,
      rule: COPY_RULE,
      source: page.source,
      printed: text,
    };
  }
  return null;
}
