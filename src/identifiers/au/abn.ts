/**
 * ABN (Australian Business Number).
 *
 * Eleven digits printed `NN NNN NNN NNN`: two check digits before a nine-digit identifier. The
 * ABR's check: take 1 from the first digit, weight the eleven digits 10, 1, 3, 5, 7, 9, 11, 13,
 * 15, 17, 19; the sum is a multiple of 89. The ABR's generator always gives check pairs 11-99.
 * Source: abr.business.gov.au/Help/AbnFormat; npm stdnum's
 * AU.abn is right and is used for the sum.
 *
 *   valid:   51 824 753 556 (the ABR's example: 534 = 6 x 89)
 *   invalid: 51 824 753 557 (check), 00 111 111 111 (passes the sum, but no ABN starts 00-10)
 */
import type { Draw } from '../global-rule.js';
import { drawBelow, drawDigits, reshape } from '../stand-in.js';
import { stdnumValidator } from '../stdnum-validator.js';
import { accept, reject, type Validation } from '../validation.js';

const ABN = stdnumValidator('AU', 'abn');
const RULE = 'check digits 11-99, weighted mod-89 check';
const WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

function abrSum(digits: string): number {
  let sum = 0;
  for (let i = 0; i < 11; i += 1)
    sum += (Number(digits[i]) - (i === 0 ? 1 : 0)) * (WEIGHTS[i] ?? 0);
  return sum;
}

export function validateAbn(value: string): Validation {
  if (!/^[0-9]{11}$/.test(value)) return reject(RULE, 'length');
  // Numbers starting 00-10 can pass the sum by aliasing, yet are never generated; npm stdnum
  // refuses them as a bad checksum, Presidio accepts them (§13, §26). Say why here.
  if (Number(value.slice(0, 2)) < 11) return reject(RULE, 'prefix');
  if (!ABN.validate(value).isValid) return reject(RULE, 'checksum');
  return accept(RULE, 0.9);
}

/**
 * Check digits 11-99 and a drawn identifier whose ABR sum is no multiple of 89 (never issued).
 * Moving the last digit by one moves the sum by 19 or 171, neither a multiple of 89.
 */
export function abnPseudonym(raw: string, draw: Draw): string {
  let digits = `${11 + drawBelow(draw, 89)}${drawDigits(draw, 9)}`;
  if (abrSum(digits) % 89 === 0) digits = `${digits.slice(0, 10)}${(Number(digits[10]) + 1) % 10}`;
  return reshape(raw, digits);
}
