/**
 * CPF (Cadastro de Pessoas Físicas, Brazilian individual taxpayer number).
 *
 * Eleven digits printed `NNN.NNN.NNN-DD`: a nine-digit body, the 9th digit the fiscal region of
 * issue, and two mod-11 check digits. DV1 weighs the body 10..2, DV2 weighs it 11..3 and DV1 by
 * 2; each is 11 minus the sum mod 11, or 0 where that remainder is under 2. The ten repeated
 * sequences 000.000.000-00 ... 999.999.999-99 pass both checks but are not CPFs.
 * Source: the CPF's two mod-11 check digits (python-stdnum br.cpf).
 *
 *   valid:   123.456.789-09, 529.982.247-25
 *   invalid: 123.456.789-08 (check digit), 111.111.111-11 (repeated digits)
 */
import type { Draw } from '../global-rule.js';
import { drawBelow, drawDigits, reshape } from '../stand-in.js';
import { stdnumValidator } from '../stdnum-validator.js';
import { accept, reject, type Validation } from '../validation.js';

const CPF = stdnumValidator('BR', 'cpf');
const RULE = 'two mod-11 check digits, not a repeated digit';

export function validateCpf(value: string): Validation {
  if (!/^[0-9]{11}$/.test(value)) return reject(RULE, 'format');
  // npm stdnum accepts all ten repeated sequences, python-stdnum only refuses 000... (§26).
  if (/^(\d)\1{10}$/.test(value)) return reject(RULE, 'repeated');
  if (!CPF.validate(value).isValid) return reject(RULE, 'checksum');
  return accept(RULE, 0.9);
}

/** One CPF check digit over `digits`, whose weights run from digits.length + 1 down to 2. */
function checkDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) sum += Number(digits[i]) * (digits.length + 1 - i);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/**
 * A drawn body with its true DV1 and a DV2 off by 1-9: a checksum-invalid CPF is never issued,
 * and the right DV1 keeps it looking like one. A body of one repeated digit is moved off it.
 */
export function cpfPseudonym(raw: string, draw: Draw): string {
  let body = drawDigits(draw, 9);
  if (/^(\d)\1{8}$/.test(body)) body = `${body.slice(0, 8)}${(Number(body[8]) + 1) % 10}`;
  const dv1 = checkDigit(body);
  const dv2 = (checkDigit(`${body}${dv1}`) + 1 + drawBelow(draw, 9)) % 10;
  return reshape(raw, `${body}${dv1}${dv2}`);
}
