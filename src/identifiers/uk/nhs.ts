/**
 * NHS number (England, Wales and the Isle of Man; the same scheme as Scotland's CHI and
 * Northern Ireland's H&C numbers).
 *
 * Ten digits printed `3 3 4`, the last a modulus-11 check digit: digits 1-9 weighted 10..2,
 * check = 11 - (sum mod 11), 11 becoming 0; a body whose check would be 10 is never issued.
 * 999 000 0000 - 999 999 9999 is a test range, valid by the checksum but never issued to a
 * patient.
 * Source: the NHS number's modulus-11 check (Wikipedia "NHS number"; NHS Wales nhs-number
 * ranges); npm stdnum has no NHS module, python-stdnum's gb.nhs is the same sum.
 *
 *   valid:   943 476 5919 (Wikipedia's example), 401 023 2137
 *   invalid: 943 476 5918 (check digit), 999 000 0018 (test range: a stand-in)
 */
import type { Draw } from '../global-rule.js';
import { drawDigits, reshape } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';

const RULE = 'modulus 11 check digit';

/** The check digit over nine digits; 10 means no number has this body. */
function checkDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < 9; i += 1) sum += Number(body[i]) * (10 - i);
  const check = 11 - (sum % 11);
  return check === 11 ? 0 : check;
}

export function validateNhs(value: string): Validation {
  if (!/^[0-9]{10}$/.test(value)) return reject(RULE, 'format');
  if (checkDigit(value) !== Number(value[9])) return reject(RULE, 'checksum');
  // The test range passes every NHS validator; refusing it here keeps our own stand-ins from
  // being found again on a second pass (§0 rule 3, §10). It is never a patient's number.
  if (value.startsWith('999')) return reject(RULE, 'reserved');
  return accept(RULE, 0.85);
}

/**
 * `999 xxx xxxx` with a valid check digit (the NHS test range). A body whose check would be 10
 * gets its 9th digit moved by one, which moves the sum by 2 or by -18, neither a multiple of 11,
 * and so the check off 10.
 */
export function nhsPseudonym(raw: string, draw: Draw): string {
  let body = `999${drawDigits(draw, 6)}`;
  if (checkDigit(body) === 10) body = `${body.slice(0, 8)}${(Number(body[8]) + 1) % 10}`;
  return reshape(raw, `${body}${checkDigit(body)}`);
}
