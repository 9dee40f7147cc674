/**
 * Aadhaar card fields from the read step's text: name, date or year of birth and gender from
 * the front; care-of, address and pincode from the back; the number from either. Each field
 * carries the confidence of the characters it was read from. Nothing here guesses: a date is
 * returned only when a real date was printed, a year only when only a year was.
 */
import { findAadhaarOnPage } from '../detection/aadhaar.js';
import { UNVERIFIED_RULE } from '../detection/aadhaar-context.js';
import { isValidAadhaar, isValidVid } from '../identifiers/in/aadhaar.js';
import type { PageText } from '../domain/text-layer.js';
import {
  centreY,
  linesAbove,
  linesBelow,
  placeLines,
  sameFrame,
  type PlacedLine,
} from './placed-lines.js';
import { readSpan, type Read } from './read-value.js';
import { asDigits, cleanName, findDate, findYear, latinShare } from './text-values.js';

// Also exported here: the services take it from this module with the card fields.
export type { Read } from './read-value.js';

export type Gender = 'M' | 'F' | 'T';

export interface AadhaarCardText {
  readonly front: boolean;
  readonly back: boolean;
  readonly name: Read<string> | null;
  /** Digits; fails Verhoeff when `checksumValid` is false. Null when no number was read. */
  readonly number: Read<string> | null;
  /** The card shows only `XXXX XXXX 1234`: `number` is null and only these four are known. */
  readonly maskedLast4: Read<string> | null;
  readonly checksumValid: boolean;
  readonly dateOfBirth: Read<string> | null;
  readonly yearOfBirth: Read<number> | null;
  /** A birth label (DOB, Year of Birth) was printed, whether or not its value was legible. */
  readonly birthLabel: 'date' | 'year' | null;
  readonly gender: Read<Gender> | null;
  readonly careOf: Read<string> | null;
  readonly address: Read<{ full: string; pincode: string | null }> | null;
  readonly vidDetected: boolean;
}

const FRONT_MARKS =
  /government\s*of\s*india|\bD[O0]B\b|date\s*of\s*birth|year\s*of\s*birth|\b(fe)?male\b/i;
const BACK_MARKS = /unique\s*identification|authority\s*of\s*india|\baddress\b|uidai/i;
/** Lines on a card that are never a holder's name. */
const NOT_A_NAME =
  /government|india|aadhaar|aadhar|unique|identification|authority|address|birth|\bD[O0]B\b|male|female|issue|download|enrol|help|www|vid\b|father|husband|mother|guardian/i;
/**
 * The relation line of older cards, between the name and the birth line: `Father : Ramesh
 * Sharma`, `पिता / Father : ...`, `Husband : ...`, or `S/O`, `D/O`, `W/O`, `C/O` before the
 * name. It goes to care_of and is never the holder's name.
 */
const RELATION =
  /(?:^|[\s/|])(father|husband|mother|guardian)\s*[:;.]\s*(\S.*)$|^\W*([SDWC])\s*[/\\]\s*[O0o]\s*[:;.]?\s*(\S.*)$/i;
// No word boundary before a label: OCR glues the Hindi label's remains to it ("ffDOB:").
const BIRTH_LABEL = /D[O0]B\b|D\.O\.B|date\s*of\s*birth|birth\b|Y[O0]B\b|year/i;
const YEAR_LABEL = /year\s*of\s*birth|Y[O0]B\b|year\b/i;

function readGender(lines: readonly PlacedLine[]): Read<Gender> | null {
  for (const line of lines) {
    const match = /\b(transgender|female|male)\b/i.exec(line.text);
    if (!match?.[1]) continue;
    const word = match[1].toLowerCase();
    const value: Gender = word === 'female' ? 'F' : word === 'male' ? 'M' : 'T';
    return readSpan(line, value, match.index, match.index + match[1].length);
  }
  return null;
}

interface Birth {
  readonly line: PlacedLine | null;
  readonly kind: 'date' | 'year' | null;
  readonly date: Read<string> | null;
  readonly year: Read<number> | null;
}

/**
 * The line right of `label` on its row: a date printed smaller than its label ("जन्म तिथि / DOB :"
 * then the date), which OCR reads as a line of its own.
 */
function valueBeside(lines: readonly PlacedLine[], label: PlacedLine): PlacedLine | null {
  return (
    lines
      .filter(
        (l) =>
          l !== label &&
          sameFrame(l, label) &&
          l.start >= label.end - 0.5 * label.height &&
          l.start - label.end <= 4 * label.height &&
          Math.abs(centreY(l) - centreY(label)) <= 0.6 * label.height,
      )
      .sort((a, b) => a.start - b.start)[0] ?? null
  );
}

function readBirth(lines: readonly PlacedLine[]): Birth {
  for (const label of lines) {
    if (!BIRTH_LABEL.test(label.text) || /issue/i.test(label.text)) continue;
    const beside = valueBeside(lines, label);
    // The label's own line, or the value printed beside it in another size.
    const line = findDate(label.text) || findYear(label.text) || !beside ? label : beside;
    const yearOnly = YEAR_LABEL.test(label.text) && !/date/i.test(label.text);
    // "Year of Birth : 26-11-2009": the label says year, the card prints the whole date.
    const date = findDate(line.text);
    if (date) {
      return {
        line: label,
        kind: 'date',
        date: readSpan(line, date.iso, date.from, date.to),
        year: null,
      };
    }
    if (yearOnly) {
      const year = findYear(line.text);
      return {
        line: label,
        kind: 'year',
        date: null,
        year: year && readSpan(line, year.year, year.from, year.to),
      };
    }
    return { line: label, kind: 'date', date: null, year: null };
  }
  return { line: null, kind: null, date: null, year: null };
}

/** The relation line of an older card front, as care_of: `Father: Ramesh Sharma`, `S/O: ...`. */
function readRelation(lines: readonly PlacedLine[], birth: PlacedLine | null): Read<string> | null {
  if (!birth) return null;
  for (const line of linesAbove(lines, birth, 4)) {
    const match = RELATION.exec(line.text);
    if (!match) continue;
    const word = match[1];
    const label = word
      ? word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()
      : `${(match[3] ?? '').toUpperCase()}/O`;
    const name = cleanName(match[2] ?? match[4] ?? '');
    if (!/[A-Za-z]{2,}/.test(name)) continue;
    return { value: `${label}: ${name}`, confidence: line.confidence };
  }
  return null;
}

/** The English name: the nearest Latin line above the birth line that is not a label. */
function readName(lines: readonly PlacedLine[], birth: PlacedLine | null): Read<string> | null {
  if (!birth) return null;
  for (const line of linesAbove(lines, birth, 4)) {
    if (latinShare(line.text) < 0.85 || NOT_A_NAME.test(line.text)) continue;
    // A relation line ("S/O: Ramesh Sharma") or the value half of one (": Ramesh Sharma").
    if (RELATION.test(line.text) || /^\s*[:;]/.test(line.text)) continue;
    const name = cleanName(line.text);
    if (!/[A-Za-z]{2,}/.test(name)) continue;
    return { value: name, confidence: line.confidence };
  }
  return null;
}

interface NumberReading {
  readonly number: Read<string> | null;
  readonly maskedLast4: Read<string> | null;
  readonly checksumValid: boolean;
}

/** The card number: a Verhoeff-valid reading first, else a 4-4-4 run that fails, else a masked one. */
function readNumber(pages: readonly PageText[], lines: readonly PlacedLine[]): NumberReading {
  // Numbers covered without a valid check digit (masking fails closed) are the fallback below.
  const findings = pages
    .flatMap((page) => findAadhaarOnPage(page).findings)
    .filter((f) => f.rule !== UNVERIFIED_RULE);
  const best = [...findings].sort((a, b) => b.confidence - a.confidence)[0];
  if (best) {
    return {
      number: { value: best.value, confidence: best.confidence },
      maskedLast4: null,
      checksumValid: true,
    };
  }
  for (const line of lines) {
    if (/\bVID\b/i.test(line.text)) continue;
    const match = /(?<![0-9])([0-9]{4}) ?([0-9]{4}) ?([0-9]{4})(?![0-9]| [0-9])/.exec(line.text);
    if (match && /^[2-9]/.test(match[0])) {
      const digits = match[0].replace(/ /g, '');
      return {
        number: readSpan(line, digits, match.index, match.index + match[0].length),
        maskedLast4: null,
        checksumValid: isValidAadhaar(digits),
      };
    }
  }
  for (const line of lines) {
    const match = /[Xx*]{4}\s?[Xx*]{4}\s?([0-9OoIlSB]{4})(?![0-9])/.exec(line.text);
    if (match?.[1]) {
      return {
        number: null,
        maskedLast4: readSpan(line, asDigits(match[1]), match.index, match.index + match[0].length),
        checksumValid: false,
      };
    }
  }
  return { number: null, maskedLast4: null, checksumValid: false };
}

function hasVid(lines: readonly PlacedLine[]): boolean {
  return lines.some((line) => {
    const digits = asDigits(line.text.replace(/\s+/g, '')).match(/[0-9]{16}/g) ?? [];
    return /\bVID\b/i.test(line.text) || digits.some((d) => isValidVid(d));
  });
}

const CARE_OF = /^\s*([SDWC])\s*[/\\]\s*[O0o]\s*[:;.]?\s*([^,]+?)\s*(,|$)/i;
const PINCODE_AT_END = /[-–\s,]*([1-9][0-9]{5})\s*$/;

/**
 * The English address block: from the line holding "Address" down through the lines that
 * start where it starts, until one ends in a pincode (or the block ends).
 */
function readAddress(lines: readonly PlacedLine[]): {
  careOf: Read<string> | null;
  address: Read<{ full: string; pincode: string | null }> | null;
} {
  const label = lines.find((l) => /\baddress\b/i.test(l.text));
  if (!label) return { careOf: null, address: null };
  const block: PlacedLine[] = [label];
  let last = label;
  for (;;) {
    const next = linesBelow(lines, last, 1.2).find(
      (l) =>
        sameFrame(l, label) &&
        Math.abs(l.start - label.start) < 2 * label.height &&
        !block.includes(l),
    );
    if (!next || /[0-9]{4}\s[0-9]{4}\s[0-9]{4}|VID/i.test(next.text)) break;
    block.push(next);
    last = next;
    if (PINCODE_AT_END.test(next.text) || block.length >= 8) break;
  }
  if (PINCODE_AT_END.test(label.text)) block.splice(1);
  let text = block
    .map((l) => l.text.trim())
    .join(' ')
    .replace(/^.*?\baddress\b\s*[:;]?\s*/i, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*,\s*/g, ', ')
    .trim();
  const confidence = block.reduce((sum, l) => sum + l.confidence, 0) / block.length;
  let careOf: Read<string> | null = null;
  const care = CARE_OF.exec(text);
  if (care?.[1] && care[2]) {
    careOf = {
      value: `${care[1].toUpperCase()}/O: ${cleanName(care[2])}`,
      confidence,
    };
    text = text.slice(care[0].length).trim();
  }
  const pin = PINCODE_AT_END.exec(text);
  const pincode = pin?.[1] ?? null;
  const body = (pin ? text.slice(0, pin.index) : text).replace(/[\s,-]+$/, '');
  const full = pincode ? `${body} - ${pincode}` : body;
  return {
    careOf,
    address: full === '' ? null : { value: { full, pincode }, confidence },
  };
}

export function readAadhaarCard(pages: readonly PageText[]): AadhaarCardText {
  const lines = placeLines(pages);
  const birth = readBirth(lines);
  const name = readName(lines, birth.line);
  const gender = readGender(lines);
  const fromAddress = readAddress(lines);
  const { address } = fromAddress;
  const careOf = fromAddress.careOf ?? readRelation(lines, birth.line);
  const number = readNumber(pages, lines);
  const front =
    name !== null ||
    birth.line !== null ||
    gender !== null ||
    lines.some((l) => FRONT_MARKS.test(l.text) && !BACK_MARKS.test(l.text));
  const back = address !== null || lines.some((l) => BACK_MARKS.test(l.text));
  return {
    front,
    back,
    name,
    ...number,
    dateOfBirth: birth.date,
    yearOfBirth: birth.year,
    birthLabel: birth.kind,
    gender,
    careOf,
    address,
    vidDetected: hasVid(lines),
  };
}
