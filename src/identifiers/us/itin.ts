/**
 * ITIN (US Individual Taxpayer Identification Number).
 *
 * Nine digits printed like an SSN, `9XX-GG-XXXX`: the first digit is 9 and the group (4th and
 * 5th digits) is one the IRS issues ITINs in, 50-65, 70-88, 90-92 or 94-99. Group 93 is the
 * ATIN (adoption) and 01-10, 17-19, 28-29, 37-39 are internal IRSNs. No check digit.
 * Source: the IRS ITIN ranges (as quoted by TaxSlayer Pro).
 *
 *   valid:   912-70-1234, 900-50-1234 (group 50: python-stdnum wrongly refuses it)
 *   invalid: 912-93-1234 (ATIN group), 912-67-1234 (group), 812-70-1234 (first digit)
 */
import type { Draw } from '../global-rule.js';
import { drawBelow, drawDigits, reshape } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';

const RULE = 'first digit 9, IRS ITIN group';

// The IRS's groups, not python-stdnum's (70-99 less 89 and 93), which misses 50-65 (§26).
function itinGroup(group: number): boolean {
  return (
    (group >= 50 && group <= 65) ||
    (group >= 70 && group <= 88) ||
    (group >= 90 && group <= 92) ||
    group >= 94
  );
}

export function validateItin(value: string): Validation {
  if (!/^[0-9]{9}$/.test(value)) return reject(RULE, 'format');
  if (!value.startsWith('9')) return reject(RULE, 'prefix');
  if (!itinGroup(Number(value.slice(3, 5)))) return reject(RULE, 'group');
  // Format only, but a 9 and one of 44 groups is a narrower shape than an SSN's.
  return accept(RULE, 0.6);
}

/** Group 66-69: outside the ITIN, ATIN and the published IRSN groups alike (§6). */
export function itinPseudonym(raw: string, draw: Draw): string {
  const group = String(66 + drawBelow(draw, 4));
  return reshape(raw, `9${drawDigits(draw, 2)}${group}${drawDigits(draw, 4)}`);
}
