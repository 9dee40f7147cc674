/**
 * How OCR misreads codes, put right before the global types are looked for on an OCR reading.
 * Both repairs keep every character's box: the text changes, its geometry does not.
 *
 * - Capitals read as their lower-case look-alikes (`Ox412679D` for the NINO OX412679D, `AlBK`
 *   for an IBAN's AIBK, `FxOziTT5` for a BIC): `capitalisedCodes` gives a second reading of the
 *   text, used only for what the first reading did not find.
 * - MRZ rows cut in pieces by the detector, with a space OCR put inside (`1<GBRYSV100 9612<<<`),
 *   a `×` for an X or `>` for a filler: `asMrzRows` joins and closes them up, so that the
 *   zone's rows keep their lengths.
 */
import { frameOfQuad, toFrame } from '../domain/geometry.js';
import type { Quad } from '../domain/geometry.js';
import type { TextLine } from '../domain/text-layer.js';

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

/** What OCR reads for an MRZ character: `×` for X, `>` and `«` for the filler `<`. */
const MRZ_LOOK_ALIKES: Readonly<Record<string, string>> = { '×': 'X', '>': '<', '«': '<' };

function mrzRow(line: TextLine): TextLine {
  if (!line.text.includes('<<')) return line;
  const chars = line.chars
    .filter((c) => c.text.trim() !== '')
    .map((c) => {
      const text = MRZ_LOOK_ALIKES[c.text];
      return text ? { ...c, text } : c;
    });
  const text = chars.map((c) => c.text).join('');
  return MRZ_ROW.test(text) ? { ...line, text, chars } : line;
}

/** A piece of an MRZ row: MRZ characters (fillers as read) with at least one filler. */
const isMrzPiece = (line: TextLine) =>
  /^[A-Z0-9<>«×\s]+$/.test(line.text) && /[<>«]/.test(line.text);

/**
 * Whether `next` continues `line`'s row: on the same band across (half the thinner one
 * shared) and beginning after it along its reading direction, within sixteen line heights: the
 * fillers between two pieces may be missed too (measured on scanned passport pages: gaps of
 * 3.5 to 10 heights, up to fourteen fillers).
 */
function continuesRow(line: TextLine, next: TextLine): boolean {
  if (line.orientation !== next.orientation) return false;
  const frame = frameOfQuad(line.quad, line.orientation);
  const { length, thickness } = frame;
  if (length === 0 || thickness === 0) return false;
  const at = next.quad.map((p) => toFrame(frame, p));
  const downs = at.map((p) => p.down);
  const nextThickness = Math.max(...downs) - Math.min(...downs);
  const shared = Math.min(thickness, Math.max(...downs)) - Math.max(0, Math.min(...downs));
  const gap = Math.min(...at.map((p) => p.along)) - length;
  return (
    shared >= 0.5 * Math.min(thickness, nextThickness) &&
    gap >= -0.25 * thickness &&
    gap <= 16 * thickness
  );
}

/**
 * A piece of fillers alone, as read in `orientation`: the recogniser may read "<<<" upside
 * down, as ">>>" turned 180 degrees (measured on a scanned passport page).
 */
function fillersAs(piece: TextLine, orientation: TextLine['orientation']): TextLine {
  if (piece.orientation === orientation || !/^[<>«\s]+$/.test(piece.text)) return piece;
  if ((piece.orientation - orientation + 360) % 180 !== 0) return piece;
  const turn = ([a, b, c, d]: Quad): Quad => [c, d, a, b];
  const chars = [...piece.chars].reverse().map((c) => ({
    ...c,
    text: c.text.trim() === '' ? c.text : '<',
    quad: turn(c.quad),
  }));
  return {
    ...piece,
    text: chars.map((c) => c.text).join(''),
    chars,
    quad: turn(piece.quad),
    orientation,
  };
}

/** Two pieces of one row as one line, from the first's start to the second's end. */
function joined(first: TextLine, second: TextLine): TextLine {
  const chars = [...first.chars, ...second.chars];
  const count = (l: TextLine) => Math.max(1, l.chars.length);
  return {
    text: chars.map((c) => c.text).join(''),
    chars,
    quad: [first.quad[0], second.quad[1], second.quad[2], first.quad[3]],
    confidence:
      (first.confidence * count(first) + second.confidence * count(second)) /
      (count(first) + count(second)),
    orientation: first.orientation,
  };
}

/**
 * MRZ rows the detector cut in pieces joined back: OCR often finds a row's run of fillers as a
 * box of its own ("P<CANOKAFOR<<ELENA<<<<<<<" and "<<<<<<<<<<<<<<<<"), and a zone of pieces
 * is no zone of rows. A piece joins the one it continues on the same band.
 */
function joinMrzPieces(lines: readonly TextLine[]): TextLine[] {
  const out: TextLine[] = [];
  const used = new Set<number>();
  lines.forEach((line, i) => {
    if (used.has(i)) return;
    let row = line;
    if (isMrzPiece(line)) {
      for (;;) {
        const as = (l: TextLine) => fillersAs(l, row.orientation);
        const next = lines.findIndex(
          (l, j) => j > i && !used.has(j) && isMrzPiece(l) && continuesRow(row, as(l)),
        );
        if (next < 0) break;
        used.add(next);
        row = joined(row, as(lines[next] as TextLine));
      }
    }
    out.push(row);
  });
  return out;
}

/** The lines, MRZ rows joined from their pieces and closed up (same order otherwise). */
export function asMrzRows(lines: readonly TextLine[]): TextLine[] {
  return joinMrzPieces(lines).map(mrzRow);
}
