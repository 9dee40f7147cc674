/**
 * PAN card fields from the read step's text. Two layouts are in use:
 * - the newer card (2018 on) labels every value: "Name", "Father's Name", "Date of Birth",
 *   each label above its value, the PAN under "Permanent Account Number Card";
 * - the older card prints, without labels and in this order under the header, the holder's
 *   name, the father's name and the date of birth, then "Permanent Account Number" and the PAN.
 * The holder's and the father's name are told apart by the labels when there are labels, and
 * by their order when there are none; never by guessing which looks more like a first name.
 */
import { latinWords } from '../detection/aadhaar-context.js';
import { findPanOnPage } from '../detection/pan.js';
import type { PageText } from '../domain/text-layer.js';
import { linesAbove, linesBelow, placeLines, sameFrame, type PlacedLine } from './placed-lines.js';
import { readSpan, type Read } from './read-value.js';
import { cleanName, findDate, latinShare } from './text-values.js';

export interface PanCardText {
  readonly layout: 'labelled' | 'unlabelled' | null;
  /** Upper-case; may fail the structure check when OCR misread it (see `format_valid`). */
  readonly pan: Read<string> | null;
  readonly name: Read<string> | null;
  readonly fatherName: Read<string> | null;
  readonly dateOfBirth: Read<string> | null;
  /** Header or label text of a PAN card was seen. */
  readonly marked: boolean;
}

const MARKS = /income\s*tax|permanent\s*account|account\s*number|govt\.?\s*of\s*india/i;
/** Most Latin words on a card's header line (`INCOME TAX DEPARTMENT GOVT. OF INDIA`: six). */
const HEADER_WORDS = 6;
const FATHER_LABEL = /father/i;
const NAME_LABEL = /\bname\b/i;
const DOB_LABEL = /date\s*of\s*birth|\bbirth\b/i;
/** Header and label words that are never a name. */
const NOT_A_NAME =
  /income|tax|department|govt|government|india|permanent|account|number|card|signature|name|father|birth|date/i;

function nameLike(line: PlacedLine): boolean {
  const text = cleanName(line.text);
  return (
    latinShare(line.text) >= 0.85 &&
    !NOT_A_NAME.test(line.text) &&
    /[A-Za-z]{2,}/.test(text) &&
    text === text.toUpperCase()
  );
}

function asName(line: PlacedLine | undefined): Read<string> | null {
  return line ? { value: cleanName(line.text), confidence: line.confidence } : null;
}

/**
 * OCR may lose the space before a surname printed in capitals ("NISHAJOSHI"); a PAN holder's
 * surname is, as a rule, the father's, so a single word that ends with it is split there.
 */
function restoreSurnameSpace(
  name: Read<string> | null,
  father: Read<string> | null,
): Read<string> | null {
  const surname = father?.value.split(' ').at(-1);
  if (!name || !surname || surname.length < 3 || name.value.includes(' ')) return name;
  const given = name.value.slice(0, -surname.length);
  return name.value.endsWith(surname) && given.length >= 2
    ? { ...name, value: `${given} ${surname}` }
    : name;
}

/** The value printed under a label: the nearest name-like line below it. */
function valueBelow(
  lines: readonly PlacedLine[],
  label: PlacedLine | undefined,
): PlacedLine | undefined {
  return label ? linesBelow(lines, label, 2).find(nameLike) : undefined;
}

function readDate(lines: readonly PlacedLine[]): Read<string> | null {
  for (const line of lines) {
    const date = findDate(line.text);
    if (date) return readSpan(line, date.iso, date.from, date.to);
  }
  return null;
}

/** A valid PAN first; else the ten-character word under the "Permanent Account Number" label. */
function readPan(pages: readonly PageText[], lines: readonly PlacedLine[]): Read<string> | null {
  const findings = pages.flatMap((page) => findPanOnPage(page).findings);
  const best = [...findings].sort((a, b) => b.confidence - a.confidence)[0];
  if (best) return { value: best.value, confidence: best.confidence };
  const label = lines.find((l) => /account\s*number/i.test(l.text));
  const candidates = label ? [label, ...linesBelow(lines, label, 2)] : [];
  for (const line of candidates) {
    const word = line.text
      .toUpperCase()
      .split(/\s+/)
      .find((w) => /^[A-Z0-9]{10}$/.test(w) && /[0-9]/.test(w) && /[A-Z]/.test(w));
    if (word) {
      const from = line.text.toUpperCase().indexOf(word);
      return readSpan(line, word, from, from + word.length);
    }
  }
  return null;
}

export function readPanCard(pages: readonly PageText[]): PanCardText {
  const lines = placeLines(pages);
  const pan = readPan(pages, lines);
  const dateOfBirth = readDate(lines);
  // A card's header is a line of its own ("Permanent Account Number Card"): "your account
  // number" in a statement's sentence marks nothing.
  const marked = lines.some((l) => MARKS.test(l.text) && latinWords(l.text) <= HEADER_WORDS);
  const fatherLabel = lines.find((l) => FATHER_LABEL.test(l.text));
  const nameLabel = lines.find(
    (l) => NAME_LABEL.test(l.text) && !FATHER_LABEL.test(l.text) && latinShare(l.text) > 0.3,
  );
  if (fatherLabel || nameLabel) {
    // An illegible "Name" label: the holder's name is the line right above "Father's Name".
    const holder =
      valueBelow(lines, nameLabel) ??
      (fatherLabel ? linesAbove(lines, fatherLabel, 1.5).find(nameLike) : undefined);
    const father = valueBelow(lines, fatherLabel);
    const fatherName = asName(father === holder ? undefined : father);
    return {
      layout: 'labelled',
      pan,
      name: restoreSurnameSpace(asName(holder), fatherName),
      fatherName,
      dateOfBirth,
      marked,
    };
  }
  // Unlabelled: the name-like lines above the date, in reading order: holder, then father.
  const dateLine = lines.find((l) => findDate(l.text) !== null && !DOB_LABEL.test(l.text));
  const names = lines
    .filter(
      (l) =>
        nameLike(l) &&
        (!dateLine || (sameFrame(l, dateLine) && l.bottom <= dateLine.top + 0.5 * l.height)),
    )
    .filter((l) => !pan || !l.text.toUpperCase().includes(pan.value))
    .sort((a, b) => a.top - b.top);
  const [holder, father] = names.slice(-2).length === 2 ? names.slice(-2) : [names[0], undefined];
  return {
    layout: names.length > 0 ? 'unlabelled' : null,
    pan,
    name: asName(holder),
    fatherName: asName(father),
    dateOfBirth,
    marked,
  };
}
