/**
 * India's global types, IN_AADHAAR and IN_PAN: the same numbers as /redact-pii's `aadhaar` and
 * `pan`, validated by the same code (aadhaar.ts, pan.ts), with the reasons and stand-ins of the
 * global endpoints. Rules: UIDAI's Aadhaar format (Verhoeff) and the Income Tax PAN structure.
 */
// The package's public index does not export its checksum helpers; its CommonJS build does.
import { verhoeffGenerate, verhoeffValidate } from 'stdnum/lib/cjs/util/checksum.js';
import { AADHAAR_LENGTH, isValidAadhaar } from './aadhaar.js';
import type { Draw, GlobalRule } from './global-rule.js';
import { hasPanShape, isValidPan, PAN_HOLDER_TYPES } from './pan.js';
import { drawBelow, drawDigits, drawLetters, reshape } from './stand-in.js';
import { accept, reject, type Validation } from './validation.js';

const digits = (raw: string) => raw.replace(/[^0-9]/g, '');
const alnum = (raw: string) => raw.replace(/[^A-Za-z0-9]/g, '').toUpperCase();

/**
 * `body` as a global pattern that never takes a value out of a longer run: no letter or digit
 * right before or after it, nor, at a digit end, another digit group joined by a space, dot or
 * hyphen (so no twelve digits are read out of a 4-4-4-4 Virtual ID or card number).
 */
const bounded = (body: string) =>
  new RegExp(
    `(?<![A-Za-z0-9])(?<![0-9][ .-](?=[0-9]))(?:${body})(?![A-Za-z0-9])(?![ .-][0-9](?<=[0-9][ .-][0-9]))`,
    'g',
  );

const AADHAAR_RULE = '12 digits, first 2-9, Verhoeff check digit';

function validateAadhaar(value: string): Validation {
  if (value.length !== AADHAAR_LENGTH) return reject(AADHAAR_RULE, 'length');
  if (value.startsWith('0') || value.startsWith('1')) return reject(AADHAAR_RULE, 'prefix');
  if (!verhoeffValidate(value)) return reject(AADHAAR_RULE, 'checksum');
  // What is left is the stdnum libraries' palindrome heuristic (IN.1), kept as /redact-pii does.
  if (!isValidAadhaar(value)) return reject(AADHAAR_RULE, 'palindrome');
  return accept(AADHAAR_RULE, 0.9);
}

/** First digit 0 or 1 (never issued) and a valid Verhoeff digit, like `1234 5678 9010`. */
function aadhaarPseudonym(raw: string, draw: Draw): string {
  const body = `${drawBelow(draw, 2)}${drawDigits(draw, 10)}`;
  return reshape(raw, `${body}${verhoeffGenerate(body)}`);
}

const PAN_RULE = 'five letters (the fourth a holder code), serial 0001-9999, a letter';

function validatePan(value: string): Validation {
  if (!hasPanShape(value)) return reject(PAN_RULE, 'format');
  if (value.slice(5, 9) === '0000') return reject(PAN_RULE, 'serial');
  if (!isValidPan(value)) return reject(PAN_RULE, 'holder');
  // K is accepted by both stdnum libraries but is not on the Income Tax Department's list (IN.3).
  return accept(PAN_RULE, PAN_HOLDER_TYPES[value.charAt(3)] ? 0.85 : 0.6);
}

/** Serial 0000 (never issued), the holder code kept, the other letters drawn. */
function panPseudonym(raw: string, draw: Draw): string {
  const holder = alnum(raw).charAt(3) || 'P';
  const letters = drawLetters(draw, 5);
  return reshape(
    raw,
    `${letters.slice(0, 3)}${holder}${letters.slice(3, 4)}0000${letters.slice(4)}`,
  );
}

export const INDIA_GLOBAL: readonly GlobalRule[] = [
  {
    type: 'IN_AADHAAR',
    country: 'IN',
    countries: ['IN'],
    category: 'national_id',
    validation: 'Verhoeff',
    description: 'Indian Aadhaar number',
    enabledByDefault: true,
    // `2341 2341 2346`, hyphenated or bare; a leading 0 or 1 is read, then refused for it.
    pattern: bounded('[0-9]{4}([ -]?)[0-9]{4}\\1[0-9]{4}'),
    compact: digits,
    validate: validateAadhaar,
    labels: /aadha?a?r|adhaa?r|\buid\b|uidai|आधार/i,
    pseudonym: aadhaarPseudonym,
  },
  {
    type: 'IN_PAN',
    country: 'IN',
    countries: ['IN'],
    category: 'tax_id',
    validation: 'Format',
    description: 'Indian Permanent Account Number',
    enabledByDefault: true,
    // Upper case as issued; inside a GSTIN the letters and digits around it keep it unread.
    pattern: bounded('[A-Z]{5}[0-9]{4}[A-Z]'),
    compact: alnum,
    validate: validatePan,
    labels: /\bpan\b|permanent\s*account|income\s*tax|पैन/i,
    pseudonym: panPseudonym,
  },
];
