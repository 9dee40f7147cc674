/**
 * SIN (Canadian Social Insurance Number).
 *
 * Nine digits printed `DDD DDD DDD` or `DDD-DDD-DDD`, the last a Luhn check digit over the
 * other eight. The first digit is the region of registration (1 Atlantic, 2-3 Quebec, 4-5
 * Ontario, 6 Prairies and the North, 7 British Columbia and Yukon, 9 temporary residents);
 * 0 and 8 are not assigned to individuals.
 * Source: the SIN's Luhn rule and first-digit ranges (Presidio docs; python-stdnum ca.sin).
 *
 *   valid:   130 692 544, 193-456-787
 *   invalid: 130 692 545 (check digit), 812 345 674 (first digit 8), 046 454 286 (first digit 0)
 */
import { luhnChecksumDigit } from 'stdnum/lib/cjs/util/checksum.js';
import type { Draw } from '../global-rule.js';
import { drawDigits, reshape } from '../stand-in.js';
import { stdnumValidator } from '../stdnum-validator.js';
import { accept, reject, type Validation } from '../validation.js';

const SIN = stdnumValidator('CA', 'sin');
const RULE = 'first digit 1-7 or 9, Luhn check digit';

export function validateSin(value: string): Validation {
  if (!/^[0-9]{9}$/.test(value)) return reject(RULE, 'format');
  // npm stdnum checks only the Luhn digit and lets 0 and 8 through (§26): refuse them here.
  if (value.startsWith('0') || value.startsWith('8')) return reject(RULE, 'prefix');
  if (!SIN.validate(value).isValid) return reject(RULE, 'checksum');
  return accept(RULE, 0.85);
}

/** First digit 0 (never given to a person) with a valid Luhn digit, like `012 345 674`. */
export function sinPseudonym(raw: string, draw: Draw): string {
  const body = `0${drawDigits(draw, 7)}`;
  return reshape(raw, `${body}${luhnChecksumDigit(body)}`);
}
