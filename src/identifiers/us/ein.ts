/**
 * EIN (US Employer Identification Number).
 *
 * Nine digits printed `NN-NNNNNNN`; the first two are a prefix the IRS assigns to a campus or
 * to online issuance. Every prefix is in use except 00, 07, 08, 09, 17, 18, 19, 28, 29, 49, 69,
 * 70, 78, 79, 89, 96 and 97. No check digit.
 * Source: IRS "How EINs are assigned and valid EIN prefixes" (as python-stdnum's ein.dat).
 *
 *   valid:   12-3456789, 98-7654321
 *   invalid: 07-1234567 (prefix), 00-1234567 (prefix)
 */
import type { Draw } from '../global-rule.js';
import { drawBelow, drawDigits, reshape } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';

const RULE = 'IRS-assigned prefix';

const UNASSIGNED = new Set([
  '00', '07', '08', '09', '17', '18', '19', '28', '29', '49', '69', '70', '78', '79', '89', '96', '97',
]); // prettier-ignore

export function validateEin(value: string): Validation {
  if (!/^[0-9]{9}$/.test(value)) return reject(RULE, 'format');
  if (UNASSIGNED.has(value.slice(0, 2))) return reject(RULE, 'prefix');
  // Format only: 83 of 100 prefixes are in use, so the printed NN-NNNNNNN shape does the work.
  return accept(RULE, 0.5);
}

/** Prefix 07, 08 or 09, never assigned; as bare digits 07x-09x is no ITIN (needs a 9) either. */
export function einPseudonym(raw: string, draw: Draw): string {
  return reshape(raw, `0${String(7 + drawBelow(draw, 3))}${drawDigits(draw, 7)}`);
}
