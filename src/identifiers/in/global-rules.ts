/**
 * India's global types, IN_AADHAAR and IN_PAN: the same numbers as /redact-pii's `aadhaar` and
 * `pan`, validated by the same code (aadhaar.ts, pan.ts), with the reasons and stand-ins of the
 * global endpoints. Rules: UIDAI's Aadhaar format (Verhoeff) and the Income Tax PAN structure.
 */
// The package's public index does not export its checksum helpers; its CommonJS build does.
import { verhoeffGenerate } from 'stdnum/lib/cjs/util/checksum.js';
import { AADHAAR_LABELS, validateAadhaar } from './aadhaar.js';
import type { Draw, GlobalRule } from '../global-rule.js';
import { hasPanShape, isValidPan, PAN_HOLDER_TYPES, PAN_LABELS, PAN_RULE } from './pan.js';
import { drawBelow, drawDigits, drawLetters, reshape } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';
import { alnum, bounded, digits } from '../patterns.js';

/** First digit 0 or 1 (never issued) and a valid Verhoeff digit, like `1234 5678 9010`. */
function aadhaarPseudonym(raw: string, draw: Draw): string {
  const body = `${drawBelow(draw, 2)}${drawDigits(draw, 10)}`;
  return reshape(raw, `${body}${verhoeffGenerate(body)}`);
}

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
    labels: AADHAAR_LABELS,
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
    labels: PAN_LABELS,
    pseudonym: panPseudonym,
  },
];
