/**
 * Finds PAN numbers in a text layer: a whole word of ten characters, five letters, four
 * digits, one letter, with an official holder code and a serial other than 0000
 * (identifiers/in/pan.ts). A PAN has no published check character, so OCR confusions are repaired
 * only by position (a digit where a letter must be, or the reverse), at most two per word;
 * a ten-character window inside a longer word (a GSTIN embeds a PAN) is never reported.
 */
import { isValidPan, PAN_LENGTH } from '../identifiers/in/pan.js';
import type { Quad } from '../domain/geometry.js';
import type { PageText, TextChar, TextLayer } from '../domain/text-layer.js';
import type { FindResult, Finding, RejectedCandidate } from './types.js';

const TYPE = 'pan';
const MAX_REPAIRS = 2;

/** What an OCR engine reads for a letter, in the letter positions. */
const AS_LETTER: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '4': 'A',
  '5': 'S',
  '6': 'G',
  '8': 'B',
  // Measured: a bold J at the end of a PAN read as "]".
  ']': 'J',
  '|': 'I',
};

/** What an OCR engine reads for a digit, in the digit positions. */
const AS_DIGIT: Readonly<Record<string, string>> = {
  O: '0',
  D: '0',
  Q: '0',
  I: '1',
  L: '1',
  '|': '1',
  Z: '2',
  S: '5',
  G: '6',
  B: '8',
};

const LETTER_POSITIONS = new Set([0, 1, 2, 3, 4, 9]);

/**
 * A TAN (four letters, five digits, a letter) is one repair away from a PAN (its fifth
 * character, a digit, read as a letter); a word that is exactly TAN-shaped is a TAN.
 */
const TAN_SHAPE = /^[A-Z]{4}[0-9]{5}[A-Z]$/;

/** Punctuation that may touch a PAN in running text ("PAN: ABCPE1234F,"). */
const EDGE_PUNCTUATION = /^[.,:;()"'/]$/;

interface Word {
  readonly chars: readonly TextChar[];
}

/** Splits a line into words at spaces, without the punctuation at their edges. */
function wordsOf(chars: readonly TextChar[]): Word[] {
  const words: Word[] = [];
  let current: TextChar[] = [];
  const flush = (): void => {
    let from = 0;
    let to = current.length;
    while (from < to && EDGE_PUNCTUATION.test(current[from]?.text ?? '')) from += 1;
    while (to > from && EDGE_PUNCTUATION.test(current[to - 1]?.text ?? '')) to -= 1;
    if (to > from) words.push({ chars: current.slice(from, to) });
    current = [];
  };
  for (const char of chars) {
    if (/^\s+$/.test(char.text)) flush();
    else current.push(char);
  }
  flush();
  return words;
}

/** The PAN a ten-character word stands for and how many characters were repaired, if any. */
function repair(text: readonly string[]): { value: string; repairs: number } | null {
  let repairs = 0;
  let value = '';
  for (const [position, raw] of text.entries()) {
    const char = raw.toUpperCase();
    if (LETTER_POSITIONS.has(position)) {
      if (/^[A-Z]$/.test(char)) value += char;
      else if (char in AS_LETTER) {
        value += AS_LETTER[char] ?? '';
        repairs += 1;
      } else return null;
    } else if (/^[0-9]$/.test(char)) value += char;
    else if (char in AS_DIGIT) {
      value += AS_DIGIT[char] ?? '';
      repairs += 1;
    } else return null;
  }
  return repairs <= MAX_REPAIRS ? { value, repairs } : null;
}

export function findPanOnPage(page: PageText): FindResult {
  const findings: Finding[] = [];
  const rejected: RejectedCandidate[] = [];
  for (const line of page.lines) {
    for (const word of wordsOf(line.chars)) {
      const texts = word.chars.map((c) => c.text);
      const printed = texts.join('');
      // Recogniser symbols are single characters; PDF glyphs may be ligatures: skip those.
      if (texts.some((t) => t.length !== 1)) continue;
      if (texts.length !== PAN_LENGTH) {
        if (texts.length > PAN_LENGTH && /[0-9]{4}/.test(texts.join(''))) {
          rejected.push({ type: TYPE, page: page.page, reason: 'inside_longer_word' });
        }
        continue;
      }
      if (TAN_SHAPE.test(texts.join('').toUpperCase())) {
        rejected.push({ type: TYPE, page: page.page, reason: 'tan_shape' });
        continue;
      }
      const repaired = repair(texts);
      if (!repaired) continue;
      if (!isValidPan(repaired.value)) {
        rejected.push({ type: TYPE, page: page.page, reason: 'structure' });
        continue;
      }
      findings.push({
        type: TYPE,
        page: page.page,
        value: repaired.value,
        charQuads: word.chars.map((c) => c.quad),
        orientation: line.orientation,
        confidence: word.chars.reduce((sum, c) => sum + c.confidence, 0) / PAN_LENGTH,
        rule: repaired.repairs === 0 ? 'pan_structure' : 'pan_structure_after_ocr_repair',
        source: page.source,
        printed,
      });
    }
  }
  return { findings, rejected };
}

/** The printed headers of a PAN card. */
const PAN_CARD_MARKS = /income\s*tax|permanent\s*account/i;

/**
 * Fail closed on a PAN card whose PAN could not be read: OCR may drop or merge a character
 * (CJJPP4592J read as "CJPP4592]"), and no repair by position recovers a missing one. On a
 * page that carries a PAN card's header and no PAN was found, every word of 8 to 12
 * characters mixing at least two letters and three digits is returned, to be covered whole.
 */
export function findUnreadPanOnCard(page: PageText): readonly (readonly Quad[])[] {
  if (!page.lines.some((l) => PAN_CARD_MARKS.test(l.text))) return [];
  if (findPanOnPage(page).findings.length > 0) return [];
  const suspects: Quad[][] = [];
  for (const line of page.lines) {
    for (const word of wordsOf(line.chars)) {
      const text = word.chars.map((c) => c.text).join('');
      const digits = text.replace(/[^0-9]/g, '').length;
      const letters = text.replace(/[^A-Za-z]/g, '').length;
      if (text.length >= 8 && text.length <= 12 && digits >= 3 && letters >= 2) {
        suspects.push(word.chars.map((c) => c.quad));
      }
    }
  }
  return suspects;
}

export function findPan(layer: TextLayer): FindResult {
  const results = layer.pages.map(findPanOnPage);
  return {
    findings: results.flatMap((r) => r.findings),
    rejected: results.flatMap((r) => r.rejected),
  };
}
