/**
 * SSN (US Social Security Number).
 *
 * Nine digits printed `AAA-GG-SSSS` (also with spaces, dots or none): area, group and serial.
 * There is no check digit. Since SSA's randomisation of 25 June 2011 the area no longer says
 * where a number was issued, but area 000, 666 and 900-999, group 00 and serial 0000 are still
 * never assigned; 9xx is the IRS's space (ITIN, ATIN), which US_ITIN reads.
 * Source: the SSA's SSN randomisation FAQ.
 *
 *   valid:   123-45-6789, 078-05-1120 (the Woolworth wallet card: published, but an SSN's shape)
 *   invalid: 666-12-3456 (area), 123-00-4567 (group), 123-45-0000 (serial)
 */
import type { Draw } from '../global-rule.js';
import { drawDigits, reshape } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';

const RULE = 'area not 000, 666 or 9xx; group not 00; serial not 0000';

// Our own rules: npm stdnum lets serial 0000 through, and Presidio lets area 9xx through (§26).
export function validateSsn(value: string): Validation {
  if (!/^[0-9]{9}$/.test(value)) return reject(RULE, 'format');
  const area = value.slice(0, 3);
  if (area === '000' || area === '666' || area.startsWith('9')) return reject(RULE, 'prefix');
  if (value.slice(3, 5) === '00') return reject(RULE, 'group');
  if (value.slice(5) === '0000') return reject(RULE, 'serial');
  // No check digit: any nine digits with a free area pass, so the shape alone is weak evidence.
  return accept(RULE, 0.65);
}

/**
 * Area 000 (never issued) with a drawn group and serial. It is no ITIN either (those start with
 * 9) and no EIN (prefix 00 is not issued), so the bare nine digits are no US taxpayer number.
 */
export function ssnPseudonym(raw: string, draw: Draw): string {
  return reshape(raw, `000${drawDigits(draw, 6)}`);
}
