/**
 * How OCR misreads codes, put right before the global types are looked for on an OCR reading.
 * Both repairs keep every character's box: the text changes, its geometry does not.
 *
 * - Capitals read as their lower-case look-alikes (`Ox412679D` for the NINO OX412679D, `AlBK`
 *   for an IBAN's AIBK, `FxOziTT5` for a BIC): `capitalisedCodes` gives a second reading of the
 *   text, used only for what the first reading did not find.
 * - MRZ rows with a space OCR put inside (`1<GBRYSV100 9612<<<`) or a `×` for an X: such rows
 *   are closed up by `asMrzRows` so that the zone's rows keep their lengths.
 */
import type { TextLine } from '../ocr/types.js';

/** Lower-case letters with the shape of their capital (and l and i, of I). */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  c: 'C',
  k: 'K',
  o: 'O',
  p: 'P',
  s: 'S',
  u: 'U',
  v: 'V',
  w: 'W',
  x: 'X',
  z: 'Z',
  i: 'I',
  l: 'I',
};

/**
 * Words that are mostly capitals and digits and whose lower-case letters are all look-alikes
 * of capitals, those letters made capitals. Prose (`Berlin12`, `Invoice`) is left alone.
 */
export function capitalisedCodes(text: string): string {
  return text.replace(/\S{3,}/g, (word) => {
    const lower = word.match(/[a-z]/g) ?? [];
    if (lower.length === 0 || !lower.every((c) => c in LOOK_ALIKES)) return word;
    const strong = (word.match(/[A-Z0-9]/g) ?? []).length;
    if (strong < lower.length || !/[A-Z]/.test(word)) return word;
    return word.replace(/[a-z]/g, (c) => LOOK_ALIKES[c] ?? c);
  });
}

/** A line that reads as an MRZ row once spaces are taken out and `×` is an X. */
const MRZ_ROW = /^[A-Z0-9<]{25,50}$/;

function mrzRow(line: TextLine): TextLine {
  if (!line.text.includes('<<')) return line;
  const chars = line.chars
    .filter((c) => c.text.trim() !== '')
    .map((c) => (c.text === '×' ? { ...c, text: 'X' } : c));
  const text = chars.map((c) => c.text).join('');
  return MRZ_ROW.test(text) ? { ...line, text, chars } : line;
}

/** The lines, MRZ rows closed up (same lines, same order). */
export function asMrzRows(lines: readonly TextLine[]): TextLine[] {
  return lines.map(mrzRow);
}
