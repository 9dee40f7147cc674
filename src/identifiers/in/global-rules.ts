/**
 * India's global types, IN_AADHAAR and IN_PAN: the same entries as /redact-pii's `aadhaar` and
 * `pan` (AADHAAR_IN_TEXT, PAN_IN_TEXT: pattern, validator, labels), under their global names
 * with the declarations and stand-ins of the global endpoints. Rules: UIDAI's Aadhaar format (Verhoeff) and the Income Tax PAN structure.
 */
// The package's public index does not export its checksum helpers; its CommonJS build does.
import { verhoeffGenerate } from 'stdnum/lib/cjs/util/checksum.js';
import { AADHAAR_IN_TEXT } from './aadhaar.js';
import type { Draw, GlobalRule } from '../global-rule.js';
import { PAN_IN_TEXT } from './pan.js';
import { drawBelow, drawDigits, drawLetters, reshape } from '../stand-in.js';
import { alnum } from '../patterns.js';

/** First digit 0 or 1 (never issued) and a valid Verhoeff digit, like `1234 5678 9010`. */
function aadhaarPseudonym(raw: string, draw: Draw): string {
  const body = `${drawBelow(draw, 2)}${drawDigits(draw, 10)}`;
  return reshape(raw, `${body}${verhoeffGenerate(body)}`);
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
    ...AADHAAR_IN_TEXT,
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
    ...PAN_IN_TEXT,
    pseudonym: panPseudonym,
  },
];
