/**
 * Whether a PDF text layer says what its page shows. A font's ToUnicode map is written by
 * whatever made the PDF, and some generators map subset glyphs to the private-use area, to
 * U+FFFD, to control codes, or to nothing but a few stray letters among spaces. Such a line's
 * text cannot be searched for values, so a page that holds one is read by OCR as well (see
 * read-document.ts): only the pixels say what is printed there.
 */
import type { PageText, TextLine } from '../domain/text-layer.js';

/** At least this many characters that carry no text, and this share of the line's ink, */
const MEANINGLESS_MIN = 2;
const MEANINGLESS_SHARE = 0.3;
/** or a line at least this long, at least this share spaces, its letters alone or in pairs. */
const SCATTERED_MIN_CHARS = 6;
const SCATTERED_SPACE_SHARE = 0.6;
const SCATTERED_LONGEST_RUN = 2;

/**
 * A code point that no printed text decodes to: the replacement character, controls (other
 * than whitespace), the private-use planes and noncharacters.
 */
function meaningless(codePoint: number): boolean {
  if (codePoint === 0xfffd) return true;
  if (codePoint < 0x20) return codePoint !== 0x09 && codePoint !== 0x0a && codePoint !== 0x0d;
  if (codePoint >= 0x7f && codePoint <= 0x9f) return true;
  if (codePoint >= 0xe000 && codePoint <= 0xf8ff) return true;
  if (codePoint >= 0xf0000) return true;
  if (codePoint >= 0xfdd0 && codePoint <= 0xfdef) return true;
  return (codePoint & 0xfffe) === 0xfffe;
}

/** Whether `line` decodes to something no page prints. */
export function implausibleLine(line: TextLine): boolean {
  const glyphs = line.chars.map((c) => c.text);
  const ink = glyphs.filter((g) => g.trim() !== '');
  const dead = ink.filter((g) => meaningless(g.codePointAt(0) ?? 0)).length;
  if (dead >= MEANINGLESS_MIN && dead >= MEANINGLESS_SHARE * ink.length) return true;
  if (glyphs.length < SCATTERED_MIN_CHARS || ink.length === 0) return false;
  if (glyphs.length - ink.length < SCATTERED_SPACE_SHARE * glyphs.length) return false;
  let run = 0;
  let longestRun = 0;
  for (const glyph of glyphs) {
    run = glyph.trim() === '' ? 0 : run + 1;
    longestRun = Math.max(longestRun, run);
  }
  return longestRun <= SCATTERED_LONGEST_RUN;
}

/** How many of the page's lines decode to something no page prints. */
export function implausibleLines(layer: PageText): number {
  return layer.lines.filter(implausibleLine).length;
}
