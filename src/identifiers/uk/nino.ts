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
 *   invalid: QQ 12 34 56 A (HMRC's own example: Q is no prefix letter), GB 12 34 56 A (prefix)
 *
 * A letter set apart after the digits (`AB 12 34 56 H`) is the suffix as printed, misprinted
 * or misread: the prefix and digits hold HMRC's rules, so the value is found with its letter
 * inside the cover, at a lower confidence. Run together (`AB123456E`) it is another code.
 */
import type { Draw } from '../global-rule.js';
import { drawDigits, reshape } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';

const RULE = 'HMRC prefix rules, six digits, suffix A-D';

const SHAPE = /^([A-Z]{2})[0-9]{6}([A-Z]?)$/;
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
  // Without its suffix the shape is looser (any two letters and six digits); a suffix outside
  // A-D is no issued one, only the printed letter that belongs to the value.
  const suffix = shape[2] ?? '';
  if (suffix === '') return accept(RULE, 0.7);
  return accept(RULE, /[A-D]/.test(suffix) ? 0.8 : 0.6);
}

/**
 * Prefix QQ (Q is never a prefix letter; HMRC prints QQ 12 34 56 A as its example) with six
 * drawn digits and the original's suffix letter, if it had one.
 */
export function ninoPseudonym(raw: string, draw: Draw): string {
  const suffix = /[A-Z]$/i.test(raw.trim()) ? raw.trim().slice(-1).toUpperCase() : '';
  return reshape(raw, `QQ${drawDigits(draw, 6)}${suffix}`);
}
