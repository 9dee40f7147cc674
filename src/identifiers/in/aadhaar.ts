/**
 * Aadhaar numbers and Virtual IDs (UIDAI).
 *
 * Aadhaar: 12 digits, printed `XXXX XXXX XXXX`; the first digit is 2-9 (0 and 1 are never
 * issued) and the last is a Verhoeff check digit over the first eleven. A 16-digit Virtual ID
 * (VID) carries a Verhoeff digit too; no 12-digit window of a VID is an Aadhaar number.
 * Validation is python-stdnum's, through the npm `stdnum` port (which also rejects palindromes).
 * Sources: UIDAI's Aadhaar and VID number formats (twelve and sixteen digits, Verhoeff).
 *
 *   valid:   2345 6789 0124; 9999 9999 0019 (UIDAI's sandbox number: test data, not a person)
 *   invalid: 2345 6789 0123 (check digit), 1234 5678 9012 (first digit 1)
 */
// The package's public index does not export its checksum helpers; its CommonJS build does.
import { verhoeffValidate } from 'stdnum/lib/cjs/util/checksum.js';
import { bounded, digits } from '../patterns.js';
import type { TextRule } from '../rule.js';
import { stdnumValidator as validator } from '../stdnum-validator.js';
import { accept, reject, type Validation } from '../validation.js';

const AADHAAR = validator('IN', 'aadhaar');
const VID = validator('IN', 'vid');

export const AADHAAR_LENGTH = 12;
export const VID_LENGTH = 16;
/** Masking covers the first eight digits and leaves the last four readable (UIDAI's rule). */
export const AADHAAR_MASKED_DIGITS = 8;

export function isValidAadhaar(digits: string): boolean {
  return digits.length === AADHAAR_LENGTH && AADHAAR.validate(digits).isValid;
}

/** Words before a number that say it is an Aadhaar number (English, Hindi). */
export const AADHAAR_LABELS = /aadha?a?r|adhaa?r|\buid\b|uidai|आधार/i;

const AADHAAR_RULE = '12 digits, first 2-9, Verhoeff check digit';

/** The check with its reason: length, first digit, Verhoeff digit, then stdnum's palindrome rule. */
export function validateAadhaar(value: string): Validation {
  if (value.length !== AADHAAR_LENGTH) return reject(AADHAAR_RULE, 'length');
  if (value.startsWith('0') || value.startsWith('1')) return reject(AADHAAR_RULE, 'prefix');
  if (!verhoeffValidate(value)) return reject(AADHAAR_RULE, 'checksum');
  // What is left is the stdnum libraries' palindrome heuristic (IN.1), kept as /redact-pii does.
  if (!isValidAadhaar(value)) return reject(AADHAAR_RULE, 'palindrome');
  return accept(AADHAAR_RULE, 0.9);
}

/**
 * Twelve digits standing on their own in a line of text (4-4-4 or unbroken, not part of a longer
 * run such as a VID) that make a valid Aadhaar number.
 */
export function holdsAadhaarNumber(line: string): boolean {
  for (const match of line.matchAll(/(?<![0-9] ?)([0-9]{4}) ?([0-9]{4}) ?([0-9]{4})(?! ?[0-9])/g)) {
    if (isValidAadhaar(`${match[1]}${match[2]}${match[3]}`)) return true;
  }
  return false;
}

export function isValidVid(digits: string): boolean {
  return digits.length === VID_LENGTH && VID.validate(digits).isValid;
}

/**
 * A VID by UIDAI's own rule: 16 digits whose last is the Verhoeff check digit. The stdnum
 * libraries also demand a first digit 2-9 and no palindrome, carried over from Aadhaar and
 * stated nowhere by UIDAI (the type's published rule): such a VID is only less likely.
 */
export function vidChecksumValid(digits: string): boolean {
  return /^[0-9]{16}$/.test(digits) && verhoeffValidate(digits);
}

/** The masked display form: `XXXX XXXX 1234`. */
export function maskAadhaar(digits: string): string {
  return `XXXX XXXX ${digits.slice(-4)}`;
}

/**
 * How the finder reads Aadhaar numbers in text, for both catalogue views (/redact-pii's
 * `aadhaar`, the global `IN_AADHAAR`): `2341 2341 2346`, hyphenated or bare, each separator on
 * its own (OCR drops one space: "7603 98604900"); or joined by one colon, dot or slash used
 * twice (`2341:2341:2346`, as some forms and exports print it); never twelve digits out of a
 * longer run of groups (a VID). A leading 0 or 1 is read, then refused for it.
 */
export const AADHAAR_IN_TEXT = {
  pattern: bounded('[0-9]{4}(?:[ -]?[0-9]{4}[ -]?|:[0-9]{4}:|\\.[0-9]{4}\\.|/[0-9]{4}/)[0-9]{4}'),
  compact: digits,
  validate: validateAadhaar,
  labels: AADHAAR_LABELS,
} as const satisfies Omit<TextRule, 'type'>;
