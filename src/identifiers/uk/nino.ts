/**
 * NINO (UK National Insurance number).
 *
 * `AA 99 99 99 A`: a two-letter prefix, six digits (often printed in pairs) and a suffix A, B, C
 * or D, which may be left off. No check character. HMRC's rules for the prefix: D, F, I, Q, U
 * and V are used as neither letter, O not as the second, and BG, GB, KN, NK, NT, TN and ZZ not
 * at all. OO, CR, FY, MW, NC, PP, PY and PZ are administrative numbers, not NINOs.
 * Source: HMRC National Insurance Manual NIM39110.
 *
 *   valid:   AB 12 34 56 C, JG103759A
 *   invalid: QQ 12 34 56 A (HMRC's own example: Q is no prefix letter), GB 12 34 56 A (prefix),
 *            AB 12 34 56 E (suffix)
 */
import type { Draw } from '../global-rule.js';
import { drawDigits, reshape } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';

const RULE = 'HMRC prefix rules, six digits, suffix A-D';

const SHAPE = /^([A-Z]{2})[0-9]{6}([A-D]?)$/;
const NEVER_FIRST = /[DFIQUV]/;
const NEVER_SECOND = /[DFIOQUV]/;
/** Not allocated (BG...ZZ) or administrative look-alikes (CR...PZ; OO fails the O rule). */
const NOT_NINO = new Set([
  'BG',
  'GB',
  'KN',
  'NK',
  'NT',
  'TN',
  'ZZ',
  'CR',
  'FY',
  'MW',
  'NC',
  'PP',
  'PY',
  'PZ',
]);

// Our own code: python-stdnum has no NINO module; npm stdnum's knows neither the administrative
// prefixes nor any reason but "invalid" (§9, §26).
export function validateNino(value: string): Validation {
  const shape = SHAPE.exec(value);
  if (!shape) return reject(RULE, 'format');
  const prefix = shape[1] ?? '';
  if (
    NEVER_FIRST.test(prefix.charAt(0)) ||
    NEVER_SECOND.test(prefix.charAt(1)) ||
    NOT_NINO.has(prefix)
  ) {
    return reject(RULE, 'prefix');
  }
  // Without its suffix the shape is looser (any two letters and six digits).
  return accept(RULE, shape[2] ? 0.8 : 0.7);
}

/**
 * Prefix QQ (Q is never a prefix letter; HMRC prints QQ 12 34 56 A as its example) with six
 * drawn digits and the original's suffix, if it had one.
 */
export function ninoPseudonym(raw: string, draw: Draw): string {
  const suffix = /[A-D]$/i.test(raw.trim()) ? raw.trim().slice(-1).toUpperCase() : '';
  return reshape(raw, `QQ${drawDigits(draw, 6)}${suffix}`);
}
