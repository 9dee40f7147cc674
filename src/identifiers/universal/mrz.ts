/**
 * PASSPORT_MRZ (Machine-Readable Zone of an ICAO Doc 9303 travel document).
 *
 * The two or three lines of OCR-B at the foot of a passport's data page or on the back of an ID
 * card: TD3 (passports) 2 lines of 44 characters, TD2 2 x 36, TD1 (ID cards) 3 x 30, written in
 * A-Z, 0-9 and the filler `<`. The document number, the birth date and the expiry date (on TD3
 * also the personal number) each carry a check digit, and a composite check digit covers them
 * together: weights 7, 3, 1 repeating from the field's first character, A=10 ... Z=35, `<`=0,
 * sum mod 10. Birth and expiry dates are YYMMDD; sex is M, F, X or `<`.
 *
 * Source: ICAO Doc 9303 parts 4-6, field positions as in cheminfo/mrz (the type's published rule).
 * Machine-readable visas (code V) carry no composite digit and are not taken; the ICAO list of
 * state codes is not checked (no maintained list is a dependency), only their shape.
 *
 * More information: https://www.icao.int/publications/pages/publication.aspx?docnum=9303
 *
 *   P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<
 *   C01X0006H1D<<6408125F1710319<<<<<<<<<<<<<<<0   valid (German specimen, cheminfo/mrz)
 *   C01X0006H1D<<6408125F1710319<<<<<<<<<<<<<<<1   invalid: composite check digit
 *
 * The check digits are computed here: no ICAO 9303 library is a dependency (npm `mrz` is the
 * reference, the type's published rule), and the 7-3-1 sum is a few lines.
 */
import type { Draw } from '../global-rule.js';
import { drawBelow } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';
import { redrawClasses, type RuleBehaviour } from './behaviour.js';

const C = '[A-Z0-9<]';
/** Line breaks between the lines, with the stray spaces OCR leaves at their ends. */
const BREAK = '[ \\t]*\\r?\\n[ \\t]*';
/**
 * A whole zone, or failing that two or three rows of MRZ characters, 20 or more each: OCR may
 * misread one row of a scan (characters dropped, a run of fillers lost), and the zone is still
 * found when another row checks by itself (see `validatePartial`).
 */
const PATTERN = new RegExp(
  `(?<!${C})(?:${C}{44}${BREAK}${C}{44}|${C}{36}${BREAK}${C}{36}|${C}{30}${BREAK}${C}{30}${BREAK}${C}{30}` +
    `|${C}{20,46}(?:${BREAK}${C}{20,46}){1,2})(?!${C})`,
  'g',
);

const WEIGHTS = [7, 3, 1] as const;

function charValue(c: string): number {
  if (c >= '0' && c <= '9') return c.charCodeAt(0) - 48;
  if (c >= 'A' && c <= 'Z') return c.charCodeAt(0) - 55;
  return 0; // the filler `<`
}

/** The ICAO 9303 check digit of `field`. */
export function mrzCheckDigit(field: string): string {
  let sum = 0;
  for (let i = 0; i < field.length; i += 1) {
    sum += charValue(field[i] ?? '<') * (WEIGHTS[i % 3] ?? 1);
  }
  return String(sum % 10);
}

/** A field's check digit holds; an all-filler optional field may print `<` instead of 0. */
function checks(field: string, digit: string, optional = false): boolean {
  if (optional && /^<*$/.test(field) && (digit === '<' || digit === '0')) return true;
  return digit === mrzCheckDigit(field);
}

function isDate(yymmdd: string): boolean {
  if (yymmdd.includes('<')) return /^[0-9<]{6}$/.test(yymmdd); // unknown parts are filled
  const m = /^(\d\d)(\d\d)(\d\d)$/.exec(yymmdd);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  // The century is unknown; 29 February is accepted when either century makes it a leap day.
  const leap = year % 4 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

const STATE = /^[A-Z][A-Z<]{2}$/;
const NAME = /^[A-Z<]+$/;

interface Fields {
  /** [field, check digit, optional] triples. */
  readonly checked: readonly (readonly [string, string, boolean])[];
  readonly composite: readonly [string, string];
  readonly dates: readonly string[];
  readonly states: readonly string[];
  readonly sex: string;
  readonly name: string;
  readonly code: string;
}

/**
 * The TD1 document number, which runs on into optional data 1 when longer than nine: position
 * 14 is then `<` and the overflow's last character is the check digit, computed over the
 * printed run `<` included (cheminfo/mrz's `D23145890<124` specimen checks only so).
 */
function td1DocumentNumber(l1: string): readonly [string, string] {
  if (l1[14] !== '<') return [l1.slice(5, 14), l1[14] ?? ''];
  const overflow = /^([A-Z0-9]*)([0-9])</.exec(l1.slice(15) + '<');
  if (!overflow) return [l1.slice(5, 14), '<'];
  return [l1.slice(5, 15) + (overflow[1] ?? ''), overflow[2] ?? ''];
}

function fields(value: string): Fields | undefined {
  if (value.length === 88) {
    const [l1, l2] = [value.slice(0, 44), value.slice(44)];
    return {
      code: l1.slice(0, 1),
      name: l1.slice(5),
      states: [l1.slice(2, 5), l2.slice(10, 13)],
      sex: l2.slice(20, 21),
      dates: [l2.slice(13, 19), l2.slice(21, 27)],
      checked: [
        [l2.slice(0, 9), l2.slice(9, 10), false],
        [l2.slice(13, 19), l2.slice(19, 20), false],
        [l2.slice(21, 27), l2.slice(27, 28), false],
        [l2.slice(28, 42), l2.slice(42, 43), true],
      ],
      composite: [l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, 43), l2.slice(43)],
    };
  }
  if (value.length === 72) {
    const [l1, l2] = [value.slice(0, 36), value.slice(36)];
    return {
      code: l1.slice(0, 1),
      name: l1.slice(5),
      states: [l1.slice(2, 5), l2.slice(10, 13)],
      sex: l2.slice(20, 21),
      dates: [l2.slice(13, 19), l2.slice(21, 27)],
      checked: [
        [l2.slice(0, 9), l2.slice(9, 10), false],
        [l2.slice(13, 19), l2.slice(19, 20), false],
        [l2.slice(21, 27), l2.slice(27, 28), false],
      ],
      composite: [l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, 35), l2.slice(35)],
    };
  }
  if (value.length === 90) {
    const [l1, l2, l3] = [value.slice(0, 30), value.slice(30, 60), value.slice(60)];
    const [number, check] = td1DocumentNumber(l1);
    return {
      code: l1.slice(0, 1),
      name: l3,
      states: [l1.slice(2, 5), l2.slice(15, 18)],
      sex: l2.slice(7, 8),
      dates: [l2.slice(0, 6), l2.slice(8, 14)],
      checked: [
        [number, check, false],
        [l2.slice(0, 6), l2.slice(6, 7), false],
        [l2.slice(8, 14), l2.slice(14, 15), false],
      ],
      composite: [l1.slice(5) + l2.slice(0, 7) + l2.slice(8, 15) + l2.slice(18, 29), l2.slice(29)],
    };
  }
  return undefined;
}

/**
 * What each position of a layout must hold: `L` a letter or the filler (document code, states,
 * names), `D` a digit (dates, check digits), `.` either (numbers, optional data, sex).
 */
const line = (...parts: [string, number][]) => parts.map(([c, n]) => c.repeat(n)).join('');
const CLASSES: Readonly<Record<number, string>> = {
  88:
    line(['L', 1], ['.', 1], ['L', 42]) +
    line(['.', 9], ['D', 1], ['L', 3], ['D', 7], ['.', 1], ['D', 7], ['.', 14], ['D', 2]),
  72:
    line(['L', 1], ['.', 1], ['L', 34]) +
    line(['.', 9], ['D', 1], ['L', 3], ['D', 7], ['.', 1], ['D', 7], ['.', 7], ['D', 1]),
  90:
    line(['L', 1], ['.', 1], ['L', 3], ['.', 25]) +
    line(['D', 7], ['.', 1], ['D', 7], ['L', 3], ['.', 11], ['D', 1]) +
    line(['L', 30]),
};
const AS_LETTER: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '4': 'A',
  '5': 'S',
  '6': 'G',
  // Measured on scanned passport pages: the T of ITA read as 7.
  '7': 'T',
  '8': 'B',
};
const AS_DIGIT: Readonly<Record<string, string>> = {
  O: '0',
  Q: '0',
  D: '0',
  I: '1',
  Z: '2',
  S: '5',
  G: '6',
  B: '8',
};

/**
 * OCR's look-alikes put back where the layout allows only one kind: a state read "1ND" is IND,
 * a date read "73112O" is 731120. MRZ readers do the same; the check digits then still decide,
 * and the names and states they do not cover are held to letters and the filler anyway.
 */
function repairLookAlikes(value: string): string {
  const classes = CLASSES[value.length];
  return classes ? repairWith(value, classes) : value;
}

function repairWith(value: string, classes: string): string {
  let out = '';
  for (let i = 0; i < value.length; i += 1) {
    const c = value[i] as string;
    const want = classes[i];
    out += want === 'L' ? (AS_LETTER[c] ?? c) : want === 'D' ? (AS_DIGIT[c] ?? c) : c;
  }
  return out;
}

const RULE = 'ICAO 9303 layout, 7-3-1 check digits per field and composite';

/**
 * A zone with a row misread (its rows keep their line breaks in the value): found when one row
 * is a second row that checks on its own. A TD3 or TD2 second row holds every check digit and
 * the composite; a TD1 second row holds the birth and expiry dates with their check digits, the
 * sex and the nationality. A 44- or 36-character row of A-Z, 0-9 and `<` passing three or more
 * 7-3-1 checks is no accident of prose; the whole zone is then covered.
 */
function validatePartial(rows: readonly string[]): Validation {
  for (const row of rows) {
    const layout = row.length === 44 ? 88 : row.length === 36 ? 72 : row.length === 30 ? 90 : 0;
    const classes = CLASSES[layout];
    if (!classes) continue;
    const from = layout === 90 ? 30 : row.length;
    const repaired = repairWith(row, classes.slice(from, from + row.length));
    const checks2 = layout === 90 ? td1SecondRow(repaired) : td3SecondRow(repaired);
    if (checks2) {
      if (checks2.state === 'UTO') return reject(RULE, 'reserved');
      return accept(`${RULE} (one row checked; the others misread)`, 0.8);
    }
  }
  return reject(RULE, 'checksum');
}

/** A TD3/TD2 second row that checks by itself: its nationality, or null. */
function td3SecondRow(l2: string): { state: string } | null {
  const width = l2.length;
  const optionalEnd = width === 44 ? 42 : 35;
  const ok =
    checks(l2.slice(0, 9), l2.slice(9, 10)) &&
    checks(l2.slice(13, 19), l2.slice(19, 20)) &&
    checks(l2.slice(21, 27), l2.slice(27, 28)) &&
    (width !== 44 || checks(l2.slice(28, 42), l2.slice(42, 43), true)) &&
    checks(
      l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, optionalEnd + (width === 44 ? 1 : 0)),
      l2.slice(width - 1),
    ) &&
    STATE.test(l2.slice(10, 13)) &&
    /^[MFX<]$/.test(l2.slice(20, 21)) &&
    isDate(l2.slice(13, 19)) &&
    isDate(l2.slice(21, 27));
  return ok ? { state: l2.slice(10, 13) } : null;
}

/** Characters of a TD3 or TD2 second row up to the expiry's check digit. */
const SECOND_ROW_START = 28;

/**
 * A row OCR read too long or short (fillers merged or split), whose start is a TD3 or TD2
 * second row's: document number, birth date and expiry each with their check digit, a state
 * and a sex between them. Three check digits and two dates are no accident of prose.
 */
function td3SecondRowStart(row: string): boolean {
  if (row.length < SECOND_ROW_START || row.length > 46) return false;
  const classes = (CLASSES[88] ?? '').slice(44, 44 + SECOND_ROW_START);
  const l2 = repairWith(row.slice(0, SECOND_ROW_START), classes);
  return (
    checks(l2.slice(0, 9), l2.slice(9, 10)) &&
    checks(l2.slice(13, 19), l2.slice(19, 20)) &&
    checks(l2.slice(21, 27), l2.slice(27, 28)) &&
    STATE.test(l2.slice(10, 13)) &&
    l2.slice(10, 13) !== 'UTO' &&
    /^[MFX<]$/.test(l2.slice(20, 21)) &&
    isDate(l2.slice(13, 19)) &&
    isDate(l2.slice(21, 27))
  );
}

/** A TD1 second row whose dates check: its nationality, or null. */
function td1SecondRow(l2: string): { state: string } | null {
  const ok =
    checks(l2.slice(0, 6), l2.slice(6, 7)) &&
    checks(l2.slice(8, 14), l2.slice(14, 15)) &&
    /^[MFX<]$/.test(l2.slice(7, 8)) &&
    STATE.test(l2.slice(15, 18)) &&
    isDate(l2.slice(0, 6)) &&
    isDate(l2.slice(8, 14));
  return ok ? { state: l2.slice(15, 18) } : null;
}

/** The rows of a zone given as one string of a layout's length (88, 72 or 90), else null. */
function rowsOf(value: string): string[] | null {
  const width = value.length === 88 ? 44 : value.length === 72 ? 36 : value.length === 90 ? 30 : 0;
  if (width === 0) return null;
  return Array.from({ length: value.length / width }, (_, i) =>
    value.slice(i * width, (i + 1) * width),
  );
}

function validate(value: string): Validation {
  if (value.includes('\n')) {
    const rows = value.split('\n');
    const width = zoneWidth(rows);
    if (width !== null && rows.every((r) => r.length === width)) {
      const whole = validateWhole(repairLookAlikes(rows.join('')));
      if (whole.valid) return whole;
    }
    return validatePartial(rows);
  }
  return validateWhole(value);
}

/**
 * For an OCR reading only, a zone `validate` refused: found when a row begins as a TD3 or TD2
 * second row (td3SecondRowStart). OCR merges and splits runs of fillers and misreads the
 * optional field ("<<4<<<"), which breaks the composite and the row's length; a zone left
 * uncovered for that is a leak. A text layer's zone is held to every check.
 */
export function misreadMrzZone(value: string): Validation {
  const rows = value.includes('\n') ? value.split('\n') : (rowsOf(value) ?? [value]);
  return rows.some(td3SecondRowStart)
    ? accept(`${RULE} (OCR reading: a second row's first fields checked)`, 0.7)
    : reject(RULE, 'checksum');
}

function validateWhole(value: string): Validation {
  const rule = RULE;
  const f = fields(value);
  if (!f) return reject(rule, 'length');
  if (!/^[A-Z0-9<]+$/.test(value)) return reject(rule, 'format');
  // Passports are TD3 (P); ID cards TD1/TD2 (I, A, C). Visas (V) have no composite digit.
  const codes = value.length === 88 ? 'P' : 'ACIP';
  if (!codes.includes(f.code) || !/^[MFX<]$/.test(f.sex)) return reject(rule, 'format');
  if (!f.states.every((s) => STATE.test(s)) || !NAME.test(f.name)) return reject(rule, 'format');
  if (!f.checked.every(([field, digit, optional]) => checks(field, digit, optional))) {
    return reject(rule, 'checksum');
  }
  if (!checks(...f.composite)) return reject(rule, 'checksum');
  if (!f.dates.every(isDate)) return reject(rule, 'date');
  // Utopia is ICAO's fictional state of the Doc 9303 specimens, and the stand-ins' space (§0 R).
  if (f.states.includes('UTO')) return reject(rule, 'reserved');
  return accept(rule, 0.95);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A birth date of a plausible adult, YYMMDD (days up to 28 are in every month). */
function drawBirth(draw: Draw): string {
  return (
    pad((45 + drawBelow(draw, 60)) % 100) +
    pad(1 + drawBelow(draw, 12)) +
    pad(1 + drawBelow(draw, 28))
  );
}

/** An expiry one to nine years ahead, YYMMDD. */
function drawExpiry(draw: Draw): string {
  const year = (new Date().getUTCFullYear() + 1 + drawBelow(draw, 9)) % 100;
  return pad(year) + pad(1 + drawBelow(draw, 12)) + pad(1 + drawBelow(draw, 28));
}

/** An all-filler optional field keeps its printed `<`/`0`; otherwise its digit is recomputed. */
const optionalCheck = (field: string, printed: string) =>
  /^<*$/.test(field) ? printed : mrzCheckDigit(field);

function td3OrTd2(l1: string, l2: string, draw: Draw): string[] {
  const width = l1.length;
  const line1 = l1.slice(0, 2) + 'UTO' + redrawClasses(l1.slice(5), draw);
  const number = redrawClasses(l2.slice(0, 9), draw);
  const birth = drawBirth(draw);
  const expiry = drawExpiry(draw);
  let line2 =
    number +
    mrzCheckDigit(number) +
    'UTO' +
    birth +
    mrzCheckDigit(birth) +
    l2.slice(20, 21) +
    expiry +
    mrzCheckDigit(expiry);
  if (width === 44) {
    const personal = redrawClasses(l2.slice(28, 42), draw);
    line2 += personal + optionalCheck(personal, l2.slice(42, 43));
    return [
      line1,
      line2 + mrzCheckDigit(line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21)),
    ];
  }
  line2 += redrawClasses(l2.slice(28, 35), draw);
  return [line1, line2 + mrzCheckDigit(line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21))];
}

function td1(l1: string, l2: string, l3: string, draw: Draw): string[] {
  let line1 = l1.slice(0, 2) + 'UTO';
  const main = redrawClasses(l1.slice(5, 14), draw);
  const overflow = l1[14] === '<' ? /^([A-Z0-9]*)[0-9]</.exec(l1.slice(15) + '<') : null;
  if (overflow) {
    const extra = redrawClasses(overflow[1] ?? '', draw);
    const rest = l1.slice(15 + extra.length + 1);
    line1 += main + '<' + extra + mrzCheckDigit(main + '<' + extra) + redrawClasses(rest, draw);
  } else {
    line1 += main + mrzCheckDigit(main) + redrawClasses(l1.slice(15), draw);
  }
  const birth = drawBirth(draw);
  const expiry = drawExpiry(draw);
  const line2 =
    birth +
    mrzCheckDigit(birth) +
    l2.slice(7, 8) +
    expiry +
    mrzCheckDigit(expiry) +
    'UTO' +
    redrawClasses(l2.slice(18, 29), draw);
  const composite = mrzCheckDigit(
    line1.slice(5) + line2.slice(0, 7) + line2.slice(8, 15) + line2.slice(18),
  );
  return [line1, line2 + composite, redrawClasses(l3, draw)];
}

/**
 * Utopia's (`UTO`, R) document of the same layout: number, names and optional data redrawn in
 * their character classes with the fillers kept, a plausible birth date, a future expiry, and
 * every check digit recomputed so that MRZ readers still parse it.
 */
function pseudonym(raw: string, draw: Draw): string {
  const parts = raw.split(/(\s+)/);
  const lines = parts.filter((_, i) => i % 2 === 0);
  const [l1 = '', l2 = '', l3 = ''] = lines;
  let fresh: string[];
  if (lines.length === 2 && (l1.length === 44 || l1.length === 36) && l2.length === l1.length) {
    fresh = td3OrTd2(l1, l2, draw);
  } else if (lines.length === 3 && l1.length === 30) {
    fresh = td1(l1, l2, l3, draw);
  } else {
    return redrawClasses(raw, draw);
  }
  return parts.map((p, i) => (i % 2 === 0 ? (fresh[i / 2] ?? p) : p)).join('');
}

/** The row width of a zone whose rows are all within two characters of a layout's. */
function zoneWidth(rows: readonly string[]): number | null {
  const near = (width: number) => rows.every((r) => Math.abs(r.length - width) <= 2);
  if (rows.length === 2) return near(44) ? 44 : near(36) ? 36 : null;
  if (rows.length === 3) return near(30) ? 30 : null;
  return null;
}

/**
 * The row brought to `width` by lengthening or shortening its longest run of fillers: OCR loses
 * or adds a `<` in a long run of them far more often than anything else in a zone.
 */
function fitFillers(row: string, width: number): string {
  const change = width - row.length;
  if (change === 0) return row;
  let best: { at: number; length: number } | null = null;
  for (const m of row.matchAll(/<{2,}/g)) {
    if (!best || m[0].length > best.length) best = { at: m.index, length: m[0].length };
  }
  if (!best || best.length + change < 1) return row;
  return (
    row.slice(0, best.at) + '<'.repeat(best.length + change) + row.slice(best.at + best.length)
  );
}

/**
 * A zone read whole as one string of its rows, look-alikes put back. A zone whose rows had to be
 * fitted, or cannot be, keeps its line breaks: `validate` then tries it whole and, failing that,
 * row by row (`validatePartial`), since a misread zone may have lost more than a filler.
 */
function compact(raw: string): string {
  const rows = raw.trim().split(/\s*\n\s*/);
  const width = zoneWidth(rows);
  if (width === null) return rows.join('\n');
  if (rows.every((r) => r.length === width)) return repairLookAlikes(rows.join(''));
  return rows.map((r) => fitFillers(r, width)).join('\n');
}

export const PASSPORT_MRZ_RULE: RuleBehaviour = {
  pattern: PATTERN,
  compact,
  validate,
  labels: /passport|machine[- ]readable|\bmrz\b|travel\s+document|identity\s+card/i,
  blockChars: (value) => {
    // Three rows are TD1's; two are TD2's only when both read 36 long, else TD3's (a zone read
    // short lost fillers, and a cover too long beats one too short).
    const rows = value.includes('\n') ? value.split('\n') : (rowsOf(value) ?? [value]);
    if (rows.length >= 3) return 30;
    return rows.every((row) => row.length === 36) ? 36 : 44;
  },
  pseudonym,
};
