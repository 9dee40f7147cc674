/**
 * TFN (Australian Tax File Number).
 *
 * Nine digits printed `NNN NNN NNN` (older TFNs have eight). Check: the digits weighted 1, 4,
 * 3, 7, 5, 8, 6, 9, 10 (the first eight of them for an eight-digit TFN) sum to a multiple of 11.
 * No test range is published.
 * Source: the ATO algorithm as published in "The secret life of TFNs" (python-stdnum au.tfn); npm stdnum's AU.tfn is right and is used here.
 *
 *   valid:   123 456 782 (the ATO's example: 253 = 23 x 11)
 *   invalid: 123 456 781 (check), 123 456 78 (eight digits failing the check)
 */
import type { Draw } from '../global-rule.js';
import { drawDigits, reshape } from '../stand-in.js';
import { stdnumValidator } from '../stdnum-validator.js';
import { accept, reject, type Validation } from '../validation.js';

const TFN = stdnumValidator('AU', 'tfn');
const RULE = 'weighted mod-11 check';
const WEIGHTS = [1, 4, 3, 7, 5, 8, 6, 9, 10];

export function validateTfn(value: string): Validation {
  if (!/^[0-9]{8,9}$/.test(value)) return reject(RULE, 'length');
  if (!TFN.validate(value).isValid) return reject(RULE, 'checksum');
  return accept(RULE, 0.85);
}

/**
 * Drawn digits of the original's length whose weighted sum is not a multiple of 11: such a TFN
 * is never issued. Moving the last digit by one moves the sum by its weight (10 or 9), never by
 * a multiple of 11.
 */
export function tfnPseudonym(raw: string, draw: Draw): string {
  const length = raw.replace(/[^0-9]/g, '').length === 8 ? 8 : 9;
  let digits = drawDigits(draw, length);
  let sum = 0;
  for (let i = 0; i < length; i += 1) sum += Number(digits[i]) * (WEIGHTS[i] ?? 0);
  if (sum % 11 === 0) digits = `${digits.slice(0, -1)}${(Number(digits.at(-1)) + 1) % 10}`;
  return reshape(raw, digits);
}
