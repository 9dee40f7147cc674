/**
 * PAYMENT_CARD (Primary Account Number of a payment card, ISO/IEC 7812).
 *
 * 12 to 19 digits: an issuer identification number (IIN, whose leading digits name the brand),
 * the account number and a final Luhn check digit. Printed in groups of four (Amex 4-6-5,
 * Diners 4-6-4) separated by spaces or hyphens. Luhn: from the check digit leftwards, double
 * every second digit, subtract 9 from results over 9, sum; valid iff the sum is 0 mod 10.
 *
 * A bare Luhn check passes one random digit string in ten (pii-shield#209 found 374 "cards" that
 * were millisecond timestamps), so the brand's prefix and length are enforced too: Visa 4
 * (13, 16, 19); UATP 1 (15); Mastercard 51-55, 2221-2720 (16); Amex 34, 37 (15); Discover 6011, 644-649, 65,
 * 622126-622925 (16-19); JCB 3528-3589 (16-19); Diners 300-305, 36, 38-39 (14-19); UnionPay 62
 * (16-19); Maestro 50, 56-69 (12-19). Source: the type's published rule (published IIN tables).
 *
 * More information: https://en.wikipedia.org/wiki/Payment_card_number
 *
 *   4111 1111 1111 1111   valid (Visa test number)
 *   4111 1111 1111 1112   invalid: checksum
 *   1234 5678 9012 3452   invalid: length (UATP, the one brand starting with 1, has 15 digits)
 */
import type { Draw } from '../global-rule.js';
import { drawDigits, reshape } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';
import type { RuleBehaviour } from './behaviour.js';

/**
 * Digits in groups joined by single spaces or hyphens, never cut out of a longer run of digits,
 * letters or separated digit groups (each repetition takes one digit: no backtracking blow-up).
 * A block of twelve digits or more with no separator inside is a token of its own, though: a
 * value may begin or end at the separator that joins such a block to its neighbour, so that two
 * numbers printed one after the other with a space between (`4012888888881881
 * 5555555555554444`) are each found, where `4111 1111 1111 1111 2222` still yields nothing.
 */
const START = String.raw`(?<![0-9A-Za-z])(?:(?<![0-9][ -])|(?<=[0-9]{12}[ -])|(?=[0-9]{12}))`;
const END = String.raw`(?![0-9A-Za-z])(?:(?![ -][0-9])|(?=[ -][0-9]{12})|(?<=[0-9]{12}))`;
/**
 * Groups joined by dots, as some owners print them (`4012.8888.8888.1881`, Amex
 * `3782.822463.10005`, Diners `3641.7797.8891.89`): four digits, one to three groups of three to
 * six and a last group of one to six (three groups at least), never cut out of a longer dotted
 * run, so that a decimal (`1234.5678`) or a version string is never one; the brand, length and
 * Luhn checks do the rest.
 */
const DOTTED = String.raw`(?<![0-9A-Za-z]|[0-9]\.)[0-9]{4}(?:\.[0-9]{3,6}){1,3}\.[0-9]{1,6}(?![0-9A-Za-z]|\.[0-9])`;
const PATTERN = new RegExp(String.raw`${START}[0-9](?:[ -]?[0-9]){11,18}${END}|${DOTTED}`, 'g');

interface Brand {
  readonly prefixes: readonly (readonly [number, number])[];
  readonly lengths: readonly number[];
  readonly confidence: number;
}

const span = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

const BRANDS: readonly Brand[] = [
  { prefixes: [[4, 4]], lengths: [13, 16, 19], confidence: 0.9 },
  // UATP (airline travel cards): 15 digits beginning with 1.
  { prefixes: [[1, 1]], lengths: [15], confidence: 0.85 },
  {
    prefixes: [
      [51, 55],
      [2221, 2720],
    ],
    lengths: [16],
    confidence: 0.9,
  },
  {
    prefixes: [
      [34, 34],
      [37, 37],
    ],
    lengths: [15],
    confidence: 0.9,
  },
  {
    prefixes: [
      [6011, 6011],
      [644, 649],
      [65, 65],
      [622126, 622925],
    ],
    lengths: span(16, 19),
    confidence: 0.9,
  },
  { prefixes: [[3528, 3589]], lengths: span(16, 19), confidence: 0.9 },
  {
    prefixes: [
      [300, 305],
      [36, 36],
      [38, 39],
    ],
    lengths: span(14, 19),
    confidence: 0.85,
  },
  { prefixes: [[62, 62]], lengths: span(16, 19), confidence: 0.85 },
  // Maestro's range is wide and its lengths many: the weakest of the brand checks.
  {
    prefixes: [
      [50, 50],
      [56, 69],
    ],
    lengths: span(12, 19),
    confidence: 0.75,
  },
];

function hasPrefix(digits: string, [from, to]: readonly [number, number]): boolean {
  const lead = Number(digits.slice(0, String(from).length));
  return lead >= from && lead <= to;
}

/**
 * The Luhn sum mod 10 (0 for a valid number). Written here: python-stdnum's `luhn` is Python
 * and npm `stdnum` keeps its Luhn helper internal (not in its exports).
 */
export function luhnRemainder(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10;
}

function validate(value: string): Validation {
  const rule = 'card brand prefix and length (ISO/IEC 7812), Luhn';
  if (!/^[0-9]{12,19}$/.test(value)) return reject(rule, 'length');
  const brands = BRANDS.filter((b) => b.prefixes.some((p) => hasPrefix(value, p)));
  if (brands.length === 0) return reject(rule, 'prefix');
  const fitting = brands.filter((b) => b.lengths.includes(value.length));
  if (fitting.length === 0) return reject(rule, 'length');
  if (luhnRemainder(value) !== 0) return reject(rule, 'checksum');
  return accept(rule, Math.max(...fitting.map((b) => b.confidence)));
}

/** How many leading digits name the brand (1 for Visa's 4, 4 for 2221-2720, ...). */
function brandPrefixLength(digits: string): number {
  const lengths = BRANDS.flatMap((b) =>
    b.prefixes.filter((p) => hasPrefix(digits, p)).map(([from]) => String(from).length),
  );
  return Math.max(1, ...lengths);
}

/**
 * The same brand prefix (not the issuer's whole IIN, which names the bank) and length, random
 * digits and a last digit one off the Luhn check digit (C): every issued card passes Luhn, so
 * this one is nobody's.
 */
function pseudonym(raw: string, draw: Draw): string {
  const digits = raw.replace(/[^0-9]/g, '');
  const keep = Math.min(brandPrefixLength(digits), digits.length - 1);
  const body = digits.slice(0, keep) + drawDigits(draw, digits.length - keep - 1);
  // The digit that would make it valid, plus one.
  const valid = (10 - luhnRemainder(body + '0')) % 10;
  return reshape(raw, body + String((valid + 1) % 10));
}

/**
 * Whether `text` holds a valid card number somewhere: the stand-ins of other types whose digits
 * print in groups (an IBAN's BBAN) must not be taken for a card on the next pass.
 */
export function containsCard(text: string): boolean {
  return Array.from(text.matchAll(PATTERN)).some((m) => validate(m[0].replace(/[ -]/g, '')).valid);
}

export const PAYMENT_CARD_RULE: RuleBehaviour = {
  pattern: PATTERN,
  compact: (raw) => raw.replace(/[ .-]/g, ''),
  validate,
  labels:
    /card|visa|master\s*card|amex|american\s+express|discover|maestro|\bjcb\b|credit|debit|\bpan\b/i,
  pseudonym,
};
