/**
 * PAN, India's Permanent Account Number (Income Tax Department).
 *
 * `AAAAA9999A`: letters 1-3 a series, the 4th the holder type, the 5th the first letter of the
 * surname (individuals) or of the name, 6-9 a serial 0001-9999, the 10th an alphabetic check
 * character whose algorithm was never published, so it cannot be verified. Validation (shape,
 * holder code, serial) is python-stdnum's, through the npm `stdnum` port. Masking keeps the first
 * two characters and the last one (characters 2-8 are covered).
 * Source: the Income Tax Department's PAN structure (as python-stdnum's in.pan checks it).
 *
 *   valid:   ACUPA7085R, AAPPV8261K (python-stdnum test vectors)
 *   invalid: AAPPV0000K (serial 0000), AAPEV8261K (E is no holder code), AAPPV826IK (shape)
 */
import { alnum, bounded } from '../patterns.js';
import type { TextRule } from '../rule.js';
import { stdnumValidator as validator } from '../stdnum-validator.js';
import { accept, reject, type Validation } from '../validation.js';

const PAN = validator('IN', 'pan');

export const PAN_LENGTH = 10;

/** The rule a PAN is checked against, as reports name it. */
export const PAN_RULE = 'five letters (the fourth a holder code), serial 0001-9999, a letter';

/** Words before a code that say it is a PAN (English, Hindi). */
export const PAN_LABELS = /\bpan\b|permanent\s*account|income\s*tax|पैन/i;
/** Masking covers characters 2 to 8 (0-based): the first two and the last stay readable. */
export const PAN_MASKED_FROM = 2;
export const PAN_MASKED_TO = 8;

const SHAPE = /^[A-Z]{5}[0-9]{4}[A-Z]$/;

/**
 * The official holder codes (4th character). `K` is accepted by both stdnum libraries but is
 * not on the Income Tax Department's list, so it decodes to no holder type (null). Decoded
 * here rather than through stdnum's `isIndividual`/`isCompany`, which the npm port gets wrong
 * (it reports ACUPA7085R, a `P`, as a company).
 */
export const PAN_HOLDER_TYPES: Readonly<Record<string, string>> = {
  A: 'association_of_persons',
  B: 'body_of_individuals',
  C: 'company',
  F: 'firm',
  G: 'government',
  H: 'hindu_undivided_family',
  J: 'artificial_juridical_person',
  L: 'local_authority',
  P: 'individual',
  T: 'trust',
};

/** Structure only (five letters, four digits, one letter): what `format_valid` reports. */
export function hasPanShape(value: string): boolean {
  return SHAPE.test(value);
}

/** Shape, a holder code stdnum accepts and a serial other than 0000. */
export function isValidPan(value: string): boolean {
  return hasPanShape(value) && PAN.validate(value).isValid;
}

/** The holder type the 4th character stands for; null for a code not on the official list. */
export function panHolderType(value: string): string | null {
  return PAN_HOLDER_TYPES[value.charAt(3)] ?? null;
}

/** The masked display form: `AAXXXXXXXA`. */
export function maskPan(value: string): string {
  return `${value.slice(0, PAN_MASKED_FROM)}${'X'.repeat(PAN_MASKED_TO - PAN_MASKED_FROM + 1)}${value.slice(PAN_MASKED_TO + 1)}`;
}

/** The check with its reason: shape, serial, holder code; an unlisted holder code (K) is less sure. */
export function validatePan(value: string): Validation {
  if (!hasPanShape(value)) return reject(PAN_RULE, 'format');
  if (value.slice(5, 9) === '0000') return reject(PAN_RULE, 'serial');
  if (!isValidPan(value)) return reject(PAN_RULE, 'holder');
  // K is accepted by both stdnum libraries but is not on the Income Tax Department's list.
  return accept(PAN_RULE, PAN_HOLDER_TYPES[value.charAt(3)] ? 0.85 : 0.6);
}

/**
 * How the finder reads PANs in text, for both catalogue views (/redact-pii's `pan`, the global
 * `IN_PAN`): upper case as issued; inside a GSTIN the letters and digits around it keep it unread.
 */
export const PAN_IN_TEXT = {
  pattern: bounded('[A-Z]{5}[0-9]{4}[A-Z]'),
  compact: alnum,
  validate: validatePan,
  labels: PAN_LABELS,
} as const satisfies Omit<TextRule, 'type'>;
