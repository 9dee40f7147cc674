/**
 * ABA RTN (US bank routing transit number).
 *
 * Nine digits `XXXXYYYYC`: a Federal Reserve routing symbol, the ABA institution identifier and
 * a check digit, sometimes printed `XXXX-YYYY-C` or between the MICR ⑆ symbols. The first two
 * digits are 00-12 (US Government and the 12 Federal Reserve districts), 21-32 (thrifts),
 * 61-72 (electronic) or 80 (traveller's cheques). Check: the digits weighted 3, 7, 1, 3, 7, 1,
 * 3, 7, 1 sum to a multiple of 10.
 * Source: the ABA/Accuity routing number rules (Wikipedia "ABA routing transit number").
 *
 *   valid:   011000015, 0110-0001-5
 *   invalid: 011000016 (check digit), 501234566 (prefix 50 is unassigned; checksum valid)
 */
import type { Draw } from '../global-rule.js';
import { drawBelow, drawDigits, reshape } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';

const RULE = 'Federal Reserve prefix, 3-7-1 check digit';
const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1];

function weighted(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) sum += Number(digits[i]) * (WEIGHTS[i] ?? 0);
  return sum;
}

function assignedPrefix(prefix: number): boolean {
  return (
    prefix <= 12 ||
    (prefix >= 21 && prefix <= 32) ||
    (prefix >= 61 && prefix <= 72) ||
    prefix === 80
  );
}

// Own code: python-stdnum's rtn checks the sum but not the prefix, and npm stdnum has no RTN.
export function validateAbaRouting(value: string): Validation {
  if (!/^[0-9]{9}$/.test(value)) return reject(RULE, 'format');
  if (!assignedPrefix(Number(value.slice(0, 2)))) return reject(RULE, 'prefix');
  if (weighted(value) % 10 !== 0) return reject(RULE, 'checksum');
  return accept(RULE, 0.85);
}

/** Prefixes in the blocks the Federal Reserve never assigned (§8). */
const FREE_PREFIXES = [
  ...range(13, 20), ...range(33, 60), ...range(73, 79), ...range(81, 99),
]; // prettier-ignore

function range(from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
}

/**
 * A prefix from an unassigned block with a valid check digit, so the stand-in looks like a
 * routing number in every other way; the prefix rule is what refuses it.
 */
export function abaRoutingPseudonym(raw: string, draw: Draw): string {
  const body = `${FREE_PREFIXES[drawBelow(draw, FREE_PREFIXES.length)] ?? '50'}${drawDigits(draw, 6)}`;
  const check = (10 - (weighted(body) % 10)) % 10;
  return reshape(raw, `${body}${check}`);
}
