/**
 * Small helpers that every type's pseudonym uses: drawing digits, letters and hex from the
 * deterministic bytes of a Draw, and putting a compact stand-in back into the printed shape of
 * the original (`123-45-6789` stays `ddd-dd-dddd`, lower case stays lower case).
 */
import type { Draw } from './global-rule.js';

/** `count` decimal digits from the draw (the bias of byte % 10 is irrelevant for a stand-in). */
export function drawDigits(draw: Draw, count: number): string {
  return Array.from(draw(count), (b) => String(b % 10)).join('');
}

/** `count` capital letters from the draw. */
export function drawLetters(draw: Draw, count: number): string {
  return Array.from(draw(count), (b) => String.fromCharCode(65 + (b % 26))).join('');
}

/** `count` lower-case hexadecimal digits from the draw. */
export function drawHex(draw: Draw, count: number): string {
  return Array.from(draw(count), (b) => (b % 16).toString(16)).join('');
}

/** A number from 0 to `below - 1` from the draw. */
export function drawBelow(draw: Draw, below: number): number {
  const bytes = draw(4);
  const n = (((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8)) >>> 0;
  return (n + (bytes[3] ?? 0)) % below;
}

/**
 * `compact` poured into the shape of `raw`: each letter or digit of `raw` in turn is replaced by
 * the next character of `compact` (in the case of the original where it was a letter), and
 * everything else (spaces, hyphens, dots) is kept. Characters of `compact` left over are
 * appended; a `compact` shorter than the original's characters ends the copy there.
 */
export function reshape(raw: string, compact: string): string {
  let next = 0;
  let out = '';
  for (const c of raw) {
    if (!/[A-Za-z0-9]/.test(c)) {
      out += c;
      continue;
    }
    const replacement = compact[next];
    if (replacement === undefined) break;
    next += 1;
    out += /[a-z]/.test(c) ? replacement.toLowerCase() : replacement;
  }
  return out + compact.slice(next);
}
