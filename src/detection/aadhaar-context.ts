/**
 * Where a twelve-digit group that fails Verhoeff is still an Aadhaar number to cover: on a
 * page that is an Aadhaar card, letter or e-Aadhaar, and right after an Aadhaar label. There a
 * failed check digit means a misread or a worn print, not some other number, and leaving twelve
 * digits readable would be the leak. Elsewhere the checksum decides, so that invoice, policy and
 * order numbers of the same shape stay.
 */
import type { PageText } from '../domain/text-layer.js';

/** The names of the number (and of the VID beside it) in English and the scripts cards use. */
export const AADHAAR_LABEL =
  /aadha?a?r|adhaa?r|\buid\b|uidai|\bvid\b|आधार|ஆதார்|ఆధార్|ಆಧಾರ್|আধার|આધાર|ആധാർ|ਆਧਾਰ|ଆଧାର/i;

/** What only an Aadhaar card, enrolment letter or e-Aadhaar prints. */
const CARD_MARKERS = new RegExp(
  [
    'unique\\s*identification\\s*authority',
    'uidai',
    'भारतीय\\s*विशिष्ट\\s*पहचान',
    'आम\\s*आदमी\\s*का\\s*अधिकार',
    'मेरा\\s*आधार',
    'mera\\s*aadhaa?r',
    'enrol?ment\\s*(no|number)',
    'नामांकन\\s*क्रम',
    'your\\s*aadhaa?r\\s*(no|number)',
    'आपका\\s*आधार',
    'e-?aadhaa?r',
  ].join('|'),
  'i',
);

const GOVERNMENT = /gov(ernmen)?t\.?\s*of\s*india|भारत\s*सरकार/i;
/**
 * The holder's fields of an identity card. A card front's Hindi lines (`मेरा आधार, मेरी पहचान`)
 * are often all a reader misses, leaving "Government of India", a date of birth and a gender.
 * Other Indian cards with those fields (PAN, voter ID) print no 4-4-4 digit group.
 */
const HOLDER_FIELDS =
  /\b(dob|d\.o\.b|date\s*of\s*birth|year\s*of\s*birth|yob|male|female|transgender)\b|जन्म|पुरुष|महिला/i;

const pageText = (page: PageText) => page.lines.map((line) => line.text).join('\n');

/** A card's birth line (`जन्म तिथि / DOB : 12/03/1985`), not "your date of birth" in a letter. */
const BIRTH_LINE = /\b(dob|d\.o\.b|date\s*of\s*birth|year\s*of\s*birth|yob)\b|birth\b|जन्म/i;
/** A card's gender line (`पुरुष / MALE`). */
const GENDER_LINE = /\b(male|female|transgender)\b|पुरुष|महिला/i;
/** Most Latin words on a card's label line (`जन्म तिथि / Year of Birth : 1982` has four). */
export const LABEL_WORDS = 5;

/** Latin words of two letters or more: a card's lines hold a few, a letter's sentences many. */
export function latinWords(text: string): number {
  return (text.match(/[A-Za-z]{2,}/g) ?? []).length;
}

/** A 4-4-4 digit group printed as a line of its own, as a card front prints its number. */
const NUMBER_LINE = /^\W*[0-9]{4} [0-9]{4} [0-9]{4}\W*$/;

/**
 * Whether the page prints a holder's birth line, and beside it a gender line or a 4-4-4 group
 * on a line of its own, as a card front does, each a label line of its own. A blurred or
 * stamped front often keeps these when its header and Hindi lines are lost; the other Indian
 * cards with a birth line (PAN, voter ID) print no 4-4-4 digit group.
 */
function holderLines(page: PageText): boolean {
  const short = page.lines.filter((line) => latinWords(line.text) <= LABEL_WORDS);
  return (
    short.some((line) => BIRTH_LINE.test(line.text)) &&
    short.some((line) => GENDER_LINE.test(line.text) || NUMBER_LINE.test(line.text))
  );
}

/**
 * Whether the page reads as an Aadhaar card, letter or printout. Masking (fail closed on every
 * 4-4-4 group) and extraction (the number it returns) both take this one decision.
 */
export function isAadhaarDocumentPage(page: PageText): boolean {
  const text = pageText(page);
  if (CARD_MARKERS.test(text)) return true;
  if (GOVERNMENT.test(text) && (AADHAAR_LABEL.test(text) || HOLDER_FIELDS.test(text))) return true;
  return holderLines(page);
}

/**
 * Whether the page may be one whose holder lines were misread too (a pen line through "FEMALE"):
 * a card marker or "Government of India" is printed. Enough to read it again, not to fail closed.
 */
export function mayBeAadhaarPage(page: PageText): boolean {
  const text = pageText(page);
  return CARD_MARKERS.test(text) || GOVERNMENT.test(text);
}

/** The rule name of a finding covered without a valid check digit (counted apart). */
export const UNVERIFIED_RULE = 'unverified';
