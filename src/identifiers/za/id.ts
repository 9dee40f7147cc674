/**
 * South African identity number (RSA ID).
 *
 * Thirteen digits `YYMMDD SSSS C A Z`: the date of birth, a sequence number (0000-4999 women,
 * 5000-9999 men), C the citizenship (0 citizen, 1 permanent resident, 2 refugee), A formerly
 * race and now 8 (older numbers 9), and Z a Luhn check digit over all thirteen. The century is
 * not printed, so the date need only be real in 19YY or 20YY.
 * Source: the published ID number layout, as Presidio's ZaIdNumberRecognizer and python-stdnum's
 * za.idnr implement it.
 *
 *   valid:   800101 5009 08 7, 7503305044089, 8001015009285 (a refugee, C = 2)
 *   invalid: 800101 5009 08 8 (check digit), 010229 1234 18 9 (29 February 2001 or 1901),
 *            8001015009988 (C = 9: our stand-in space)
 */
import { luhnChecksumDigit, luhnChecksumValidate } from 'stdnum/lib/cjs/util/checksum.js';
import type { Draw } from '../global-rule.js';
import { drawBelow, drawDigits, reshape } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';

const RULE = 'birth date, citizenship 0-2, Luhn check digit';

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A real date in 19YY or 20YY: 29 February only where one of the two is a leap year. */
function realDate(yymmdd: string): boolean {
  const yy = Number(yymmdd.slice(0, 2));
  const mm = Number(yymmdd.slice(2, 4));
  const dd = Number(yymmdd.slice(4, 6));
  const days = DAYS[mm - 1];
  if (days === undefined || dd < 1 || dd > days) return false;
  // 1900 was no leap year but 2000 was, so yy % 4 === 0 settles 29 February for both centuries.
  return !(mm === 2 && dd === 29 && yy % 4 !== 0);
}

// Our own code: both stdnum ports accept citizenship 0 and 1 only and so refuse refugees' numbers
// (C = 2), which Presidio accepts (§15, §26).
export function validateZaId(value: string): Validation {
  if (!/^[0-9]{13}$/.test(value)) return reject(RULE, 'format');
  if (!realDate(value.slice(0, 6))) return reject(RULE, 'date');
  if (Number(value[10]) > 2) return reject(RULE, 'citizenship');
  if (!luhnChecksumValidate(value)) return reject(RULE, 'checksum');
  return accept(RULE, 0.9);
}

/**
 * A drawn plausible birth date (not the original's: a birth date is personal), a drawn sequence,
 * citizenship 3-9 (never issued), race digit 8 and a valid Luhn digit, like 800101 5009 9 8 8.
 */
export function zaIdPseudonym(raw: string, draw: Draw): string {
  const yy = drawDigits(draw, 2);
  const mm = String(1 + drawBelow(draw, 12)).padStart(2, '0');
  const dd = String(1 + drawBelow(draw, 28)).padStart(2, '0');
  const body = `${yy}${mm}${dd}${drawDigits(draw, 4)}${3 + drawBelow(draw, 7)}8`;
  return reshape(raw, `${body}${luhnChecksumDigit(body)}`);
}
