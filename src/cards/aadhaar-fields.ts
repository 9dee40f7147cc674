/**
 * Aadhaar card fields from the read step's text: name, date or year of birth and gender from
 * the front; care-of, address and pincode from the back; the number from either. Each field
 * carries the confidence of the characters it was read from. Nothing here guesses: a date is
 * returned only when a real date was printed, a year only when only a year was.
 */
import { findAadhaarOnPage } from '../detection/aadhaar.js';
import { findDamagedAadhaar } from '../detection/aadhaar-damaged.js';
import { LABEL_WORDS, latinWords, UNVERIFIED_RULE } from '../detection/aadhaar-context.js';
import { isValidVid } from '../identifiers/in/aadhaar.js';
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
import {
  asDigits,
  cleanName,
  findDate,
  findYear,
  latinShare,
  titleCaseName,
} from './text-values.js';

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
  /**
   * A number was printed and masking covers it, but no twelve digits of it could be read
   * (detection/aadhaar-damaged.ts): `number` is null.
   */
  readonly numberDamaged: boolean;
  readonly checksumValid: boolean;
  readonly dateOfBirth: Read<string> | null;
  readonly yearOfBirth: Read<number> | null;
  /** A birth label (DOB, Year of Birth) was printed, whether or not its value was legible. */
  readonly birthLabel: 'date' | 'year' | null;
  /**
   * Where the birth line stands but no birth value was read from it (for a second look): the
   * birth label's line, or else the line of digits right above the gender line; null when a
   * value was read or no such line is there.
   */
  readonly birthUnread: PlacedLine | null;
  /**
   * Where the gender line stands but no gender was read (for a second look): the birth line,
   * whose next row it is; null when a gender was read or no birth line was.
   */
  readonly genderUnread: PlacedLine | null;
  readonly gender: Read<Gender> | null;
  readonly careOf: Read<string> | null;
  readonly address: Read<{ full: string; pincode: string | null }> | null;
  readonly vidDetected: boolean;
}

const FRONT_MARKS =
  /government\s*of\s*india|\bD[O0]B\b|date\s*of\s*birth|year\s*of\s*birth|\b(fe)?male\b/i;
const BACK_MARKS = /unique\s*identification|authority\s*of\s*india|uidai/i;
/**
 * The address label as a card prints it: first on its line (after the regional label, `पता /
 * Address:`), then a colon or nothing. "the address on file" in a letter is no label.
 */
const ADDRESS_LABEL = /^[^A-Za-z]*(?:[A-Za-z]{1,3}\s*[/|]\s*)?address\b\s*(?:[:;.]|$)/i;

/** Most words on a card's header line (`Unique Identification Authority of India`: five). */
const HEADER_WORDS = 7;
/** Most words of a holder's name as printed on a card. */
const NAME_WORDS = 5;
/** A card's line, not a sentence: a label, a header or a name is a few words at most. */
const cardLine = (line: PlacedLine, most: number) => latinWords(line.text) <= most;
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
// "Year" alone only as a label ("Year : 1982"): "this year." ends a letter's sentence.
// "D08:" is DOB with both letters read as digits, taken only before a date's first digit.
const BIRTH_LABEL =
  /D[O0]B\b|D[O0]8\s*[:;]\s*[0-9]|D\.O\.B|date\s*of\s*birth|birth\b|Y[O0]B\b|year\s*[:;]/i;
const YEAR_LABEL = /year\s*of\s*birth|Y[O0]B\b|year\b/i;

/**
 * The gender word in `text` (`पुरुष / MALE`: the Hindi word is often read as stray letters
 * glued to it). `loose`: on a row known to be the gender row, also glued to what follows it (a
 * stamp's letters, "MALEANO").
 */
export function findGender(
  text: string,
  loose = false,
): { value: Gender; from: number; to: number } | null {
  const match = (loose ? /(transgender|female|male)/i : /(transgender|female|male)\b/i).exec(text);
  if (!match?.[1]) return null;
  const word = match[1].toLowerCase();
  const value: Gender = word === 'female' ? 'F' : word === 'male' ? 'M' : 'T';
  return { value, from: match.index, to: match.index + match[1].length };
}

/** The gender and the line it was read from (the name stands above it). */
function readGender(lines: readonly PlacedLine[]): { read: Read<Gender>; line: PlacedLine } | null {
  for (const line of lines) {
    // `पुरुष / MALE`: the word alone, not "the female applicant" in a letter. The Hindi word
    // before it is often read as stray Latin letters glued to it ("RFEMALE"): no boundary there.
    if (!cardLine(line, 2)) continue;
    const found = findGender(line.text);
    if (!found) continue;
    return { read: readSpan(line, found.value, found.from, found.to), line };
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

function readBirth(lines: readonly PlacedLine[], gender: PlacedLine | null): Birth {
  for (const label of lines) {
    if (!BIRTH_LABEL.test(label.text) || /issue/i.test(label.text)) continue;
    if (!cardLine(label, LABEL_WORDS)) continue;
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
  return unlabelledBirth(lines, gender);
}

/** Three digits or more, as a misread date keeps them ("DB:05/01/991", "03974"). */
const DATE_REMAINS = /[0-9](?:[^0-9]*[0-9]){2}/;

/**
 * The line to read again for the birth value when none was read: the label's own line, or the
 * line of digits right above the gender line where no label survived (not a 4-4-4 number).
 */
function birthUnread(
  lines: readonly PlacedLine[],
  birth: Birth,
  gender: PlacedLine | null,
): PlacedLine | null {
  if (birth.date || birth.year) return null;
  if (birth.line) return birth.line;
  if (!gender) return null;
  return (
    linesAbove(lines, gender, 1.5).find(
      (l) => DATE_REMAINS.test(l.text) && !/[0-9]{4}\s?[0-9]{4}\s?[0-9]{4}/.test(l.text),
    ) ?? null
  );
}

/** Dates a card prints that are not the birth date. */
const OTHER_DATES = /issue|download|print|generat|valid|expir/i;
/** What OCR leaves of "Year of Birth" on a small or blurred card ("YerfBith", "Yearof Bth"). */
export const WORN_YEAR_LABEL = /y\w{0,2}r|b\w?i?\w?th/i;

/**
 * A birth line whose label did not survive OCR ("DB:05/01/1991", "YerfBith:1953"), found by
 * position: among the three lines above the gender line, the one short line holding a whole
 * calendar date that no other label claims, else a year beside the remains of "Year of Birth".
 * Never a guess: a date must be a real one (findDate), and without a gender line to stand on
 * (a letter, an invoice) nothing is taken.
 */
function unlabelledBirth(lines: readonly PlacedLine[], gender: PlacedLine | null): Birth {
  const none: Birth = { line: null, kind: null, date: null, year: null };
  if (!gender) return none;
  const short = linesAbove(lines, gender, 3).filter(
    (l) => cardLine(l, LABEL_WORDS) && !OTHER_DATES.test(l.text),
  );
  const dated = short.filter((l) => findDate(l.text));
  const [only] = dated;
  const date = only && dated.length === 1 ? findDate(only.text) : null;
  if (only && date) {
    return {
      line: only,
      kind: 'date',
      date: readSpan(only, date.iso, date.from, date.to),
      year: null,
    };
  }
  for (const line of short) {
    const year = findYear(line.text);
    if (!year || findDate(line.text) || !WORN_YEAR_LABEL.test(line.text.slice(0, year.from))) {
      continue;
    }
    return {
      line,
      kind: 'year',
      date: null,
      year: readSpan(line, year.year, year.from, year.to),
    };
  }
  return none;
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

/** The first of `candidates` (nearest first) that reads as an English name, not a label. */
function nameAmong(candidates: readonly PlacedLine[]): Read<string> | null {
  for (const line of candidates) {
    if (latinShare(line.text) < 0.85 || NOT_A_NAME.test(line.text)) continue;
    // A name has no digits and is a few words; a sentence is not a name.
    if (/[0-9]/.test(line.text) || !cardLine(line, NAME_WORDS)) continue;
    // A relation line ("S/O: Ramesh Sharma") or the value half of one (": Ramesh Sharma").
    if (RELATION.test(line.text) || /^\s*[:;]/.test(line.text)) continue;
    const name = titleCaseName(cleanName(line.text));
    if (!/[A-Za-z]{2,}/.test(name)) continue;
    return { value: name, confidence: line.confidence };
  }
  return null;
}

/**
 * The English name, found by position: the nearest Latin line above the birth line that is not
 * a label; where no birth line was read, above the gender line; where neither was, the first
 * one under the "Government of India" header (its Hindi twin, not Latin, is passed over).
 */
function readName(
  lines: readonly PlacedLine[],
  birth: PlacedLine | null,
  gender: PlacedLine | null,
): Read<string> | null {
  for (const anchor of [birth, gender]) {
    const name = anchor ? nameAmong(linesAbove(lines, anchor, 4)) : null;
    if (name) return name;
  }
  const header = lines.find((l) => /government\s*of\s*india/i.test(l.text));
  return header ? nameAmong(linesBelow(lines, header, 3)) : null;
}

interface NumberReading {
  readonly number: Read<string> | null;
  readonly maskedLast4: Read<string> | null;
  readonly checksumValid: boolean;
  readonly numberDamaged: boolean;
}

/**
 * The card number, as masking decides it (detection/aadhaar.ts): a Verhoeff-valid reading
 * first; else a 4-4-4 group masking covers without a valid check digit (on an Aadhaar page or
 * after an Aadhaar label), the first in reading order; else a masked one. Whatever is returned
 * here is covered by masking on the same reading.
 */
function readNumber(pages: readonly PageText[], lines: readonly PlacedLine[]): NumberReading {
  const findings = pages.flatMap((page) => findAadhaarOnPage(page).findings);
  const verified = findings.filter((f) => f.rule !== UNVERIFIED_RULE);
  const best = [...verified].sort((a, b) => b.confidence - a.confidence)[0];
  if (best) {
    return {
      number: { value: best.value, confidence: best.confidence },
      maskedLast4: null,
      checksumValid: true,
      numberDamaged: false,
    };
  }
  // Uncertain characters stay out: a number is returned only as digits.
  const failing = findings.find((f) => /^[0-9]{12}$/.test(f.value));
  if (failing) {
    return {
      number: { value: failing.value, confidence: failing.confidence },
      maskedLast4: null,
      checksumValid: false,
      numberDamaged: false,
    };
  }
  for (const line of lines) {
    const match = /[Xx*]{4}\s?[Xx*]{4}\s?([0-9OoIlSB]{4})(?![0-9])/.exec(line.text);
    if (match?.[1]) {
      return {
        number: null,
        maskedLast4: readSpan(line, asDigits(match[1]), match.index, match.index + match[0].length),
        checksumValid: false,
        numberDamaged: false,
      };
    }
  }
  // A number masking covers though no twelve digits of it read (a barcode's bar glued to it, a
  // digit lost under a stamp): the card shows a number, none is returned.
  const numberDamaged = pages.some((page) => findDamagedAadhaar(page, findings).length > 0);
  return { number: null, maskedLast4: null, checksumValid: false, numberDamaged };
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
  const label = lines.find((l) => ADDRESS_LABEL.test(l.text));
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
  const genderRead = readGender(lines);
  const gender = genderRead?.read ?? null;
  const birth = readBirth(lines, genderRead?.line ?? null);
  // The name stands above the birth line; where that was not read, above the gender line.
  const name = readName(lines, birth.line, genderRead?.line ?? null);
  const fromAddress = readAddress(lines);
  const { address } = fromAddress;
  const careOf = fromAddress.careOf ?? readRelation(lines, birth.line);
  const number = readNumber(pages, lines);
  const front =
    name !== null ||
    birth.line !== null ||
    gender !== null ||
    lines.some(
      (l) => cardLine(l, LABEL_WORDS) && FRONT_MARKS.test(l.text) && !BACK_MARKS.test(l.text),
    );
  const back =
    address !== null ||
    lines.some(
      (l) => cardLine(l, HEADER_WORDS) && (BACK_MARKS.test(l.text) || ADDRESS_LABEL.test(l.text)),
    );
  return {
    front,
    back,
    name,
    ...number,
    dateOfBirth: birth.date,
    yearOfBirth: birth.year,
    birthLabel: birth.kind,
    birthUnread: birthUnread(lines, birth, genderRead?.line ?? null),
    genderUnread: gender ? null : birth.line,
    gender,
    careOf,
    address,
    vidDetected: hasVid(lines),
  };
}
