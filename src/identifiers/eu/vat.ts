/**
 * EU VAT identification number, with its country prefix.
 *
 * The ISO 3166 code of the member state (EL for Greece; XI for Northern Ireland's traders, who
 * keep UK formats) and a national body: ATU + 8 digits, BE + 10 digits, DE + 9 digits, FR + a
 * two-character key + the 9-digit SIREN, NL + 9 digits + B + 2 digits, ES + 9 characters, ...
 * (the table below). Every national format carries a check digit or letter, which npm stdnum
 * (a port of python-stdnum) implements country by country; whether a number is registered can
 * only be asked of VIES, online, which an offline redactor does not do.
 * Source: python-stdnum's eu.vat and its country modules.
 *
 *   valid:   DE136695976, ATU13585627, FR 40 303 265 045, NL004495445B01, EL 094259216
 *   invalid: DE136695978 (check digit), GR094259216 (Greece is EL), DE12345678 (length)
 */
import type { Validator } from 'stdnum';
import type { Draw } from '../global-rule.js';
import { drawBelow, drawDigits, reshape } from '../stand-in.js';
import { stdnumValidator } from '../stdnum-validator.js';
import { accept, reject, type Validation } from '../validation.js';

const RULE = 'country prefix, national format and check digits';

interface Country {
  /** The body as printed, one character class per character (see `printed`). */
  readonly print: readonly Piece[];
  /** The compact body (separators removed). */
  readonly body: RegExp;
  readonly check: Validator;
}

/** A character class and how many times it comes: [class, min, max]. */
type Piece = readonly [string, number, number];

const D = '[0-9]';
const d = (min: number, max = min): Piece => [D, min, max];
const one = (cls: string): Piece => [cls, 1, 1];

const country = (print: Piece[], body: RegExp, ...validator: [string, string]): Country => ({
  print,
  body,
  check: stdnumValidator(...validator),
});

/** Per prefix: what the body looks like and which npm stdnum validator checks it (§17). */
const COUNTRIES: Readonly<Record<string, Country>> = {
  AT: country([one('U'), d(8)], /^U[0-9]{8}$/, 'AT', 'uid'),
  // Before 2005 Belgian numbers had 9 digits; stdnum reads them with a leading 0.
  BE: country([d(9, 10)], /^[0-9]{9,10}$/, 'BE', 'vat'),
  BG: country([d(9, 10)], /^[0-9]{9,10}$/, 'BG', 'vat'),
  CY: country([d(8), one('[A-Z]')], /^[0-9]{8}[A-Z]$/, 'CY', 'vat'),
  CZ: country([d(8, 10)], /^[0-9]{8,10}$/, 'CZ', 'dic'),
  DE: country([d(9)], /^[0-9]{9}$/, 'DE', 'vat'),
  DK: country([d(8)], /^[0-9]{8}$/, 'DK', 'cvr'),
  EE: country([d(9)], /^[0-9]{9}$/, 'EE', 'kmkr'),
  EL: country([d(9)], /^[0-9]{9}$/, 'GR', 'vat'),
  ES: country([one('[0-9A-Z]'), d(7), one('[0-9A-Z]')], /^[0-9A-Z][0-9]{7}[0-9A-Z]$/, 'ES', 'nif'),
  FI: country([d(8)], /^[0-9]{8}$/, 'FI', 'alv'),
  FR: country([['[0-9A-HJ-NP-Z]', 2, 2], d(9)], /^[0-9A-HJ-NP-Z]{2}[0-9]{9}$/, 'FR', 'tva'),
  HR: country([d(11)], /^[0-9]{11}$/, 'HR', 'oib'),
  HU: country([d(8)], /^[0-9]{8}$/, 'HU', 'anum'),
  // New: 7 digits and 1-2 letters; old: digit, letter (or + or *), 5 digits, letter.
  IE: country(
    [d(1), one('[0-9A-Z+*]'), d(5), one('[A-W]'), ['[A-IW]', 0, 1]],
    /^(?:[0-9]{7}[A-W][A-IW]?|[0-9][A-Z+*][0-9]{5}[A-W])$/,
    'IE',
    'vat',
  ),
  IT: country([d(11)], /^[0-9]{11}$/, 'IT', 'iva'),
  LT: country([d(9, 12)], /^(?:[0-9]{9}|[0-9]{12})$/, 'LT', 'pvm'),
  LU: country([d(8)], /^[0-9]{8}$/, 'LU', 'tva'),
  LV: country([d(11)], /^[0-9]{11}$/, 'LV', 'pvn'),
  MT: country([d(8)], /^[0-9]{8}$/, 'MT', 'vat'),
  NL: country([d(9), one('B'), d(2)], /^[0-9]{9}B[0-9]{2}$/, 'NL', 'btw'),
  PL: country([d(10)], /^[0-9]{10}$/, 'PL', 'nip'),
  PT: country([d(9)], /^[0-9]{9}$/, 'PT', 'nif'),
  RO: country([one('[1-9]'), d(1, 9)], /^[1-9][0-9]{1,9}$/, 'RO', 'cui'),
  // The organisation number and 01 (a stand-in keeps the 01: only the number is drawn).
  SE: country([d(10), one('0'), one('1')], /^[0-9]{10}01$/, 'SE', 'vat'),
  SI: country([d(8)], /^[0-9]{8}$/, 'SI', 'ddv'),
  SK: country([d(10)], /^[0-9]{10}$/, 'SK', 'dph'),
  // UK formats: 9 digits, 12 with a branch, GD + 3 digits (government), HA + 3 (health).
  XI: country(
    [one('[0-9GH]'), ['[0-9AD]', 1, 1], d(3, 10)],
    /^(?:[0-9]{9}(?:[0-9]{3})?|GD[0-4][0-9]{2}|HA[5-9][0-9]{2})$/,
    'GB',
    'vat',
  ),
};

/**
 * The printed body: characters of its classes, each but the first optionally after one space,
 * dot or hyphen, as people group them (`BE 0123.456.789`, `MT 1167-9112`, `FR 40 303 265 045`).
 * Every repetition takes exactly one character, so matching stays linear.
 */
function printed(pieces: readonly Piece[]): string {
  return pieces
    .map(([cls, min, max], i) => {
      const each = `(?:[ .-]?${cls})`;
      const count = min === max ? `{${min}}` : `{${min},${max}}`;
      // The first character of the body has no separator before it (the prefix's is separate).
      if (i === 0) return min === 1 && max === 1 ? cls : `${cls}${each}{${min - 1},${max - 1}}`;
      return `${each}${count}`;
    })
    .join('');
}

/**
 * The prefixes and printed bodies as one alternation, for the rule's pattern. The prefix is
 * read in capitals or in lower case (`de 136695976`, as typed in a form) and may be followed by
 * one space, dot or hyphen (`DE.136.695.976`).
 */
export const VAT_PATTERN_SOURCE = `(?:${Object.entries(COUNTRIES)
  .map(([prefix, c]) => `(?:${prefix}|${prefix.toLowerCase()})[ .-]?${printed(c.print)}`)
  .join('|')})`;

/** Separators out, case folded; `+` and `*` stay (old Irish numbers use them). */
export function compactVat(raw: string): string {
  return raw.replace(/[^A-Za-z0-9+*]/g, '').toUpperCase();
}

function reason(error: Error | undefined): string {
  switch (error?.name) {
    case 'InvalidLength':
      return 'length';
    case 'InvalidFormat':
    case 'InvalidComponent':
      return 'format';
    default:
      return 'checksum';
  }
}

// npm stdnum's country validators are right for the bodies (§26); the prefix (EL, not GR) and
// the printed formats are ours.
export function validateVat(value: string): Validation {
  const c = COUNTRIES[value.slice(0, 2)];
  if (!c) return reject(RULE, 'prefix');
  const body = value.slice(2);
  const result = c.check.validate(body);
  // Off our format: stdnum's reason (a length) where it has one, else ours.
  if (!c.body.test(body)) return reject(RULE, result.isValid ? 'format' : reason(result.error));
  return result.isValid ? accept(RULE, 0.9) : reject(RULE, reason(result.error));
}

/**
 * The original's prefix and layout with drawn digits (its letters kept: AT's U, NL's B, an
 * Irish or Spanish check letter), taken only when the country's validator refuses it for its
 * check digits: such a number is never issued (§17, kind C).
 */
export function vatPseudonym(raw: string, draw: Draw): string {
  const value = compactVat(raw);
  const prefix = value.slice(0, 2);
  const c = COUNTRIES[prefix];
  const body = value.slice(2);
  // Sweden's closing 01 is fixed by the format, not part of the number.
  const kept = prefix === 'SE' ? 2 : 0;
  const redraw = () =>
    body.slice(0, body.length - kept).replace(/[0-9]/g, () => drawDigits(draw, 1)) +
    body.slice(body.length - kept);
  let candidate = redraw();
  // Only for a prefix the pattern never reads: drawn digits, nothing of the original's.
  if (!c) return reshape(raw, prefix + candidate);
  // UK government departments (GD000-499) and health authorities (HA500-999) have no check
  // digit: the other half of each block is never issued (kind S).
  const unit = /^(GD|HA)/.exec(body)?.[1];
  if (prefix === 'XI' && unit) {
    const number = (unit === 'GD' ? 500 : 0) + drawBelow(draw, 500);
    return reshape(raw, `${prefix}${unit}${String(number).padStart(3, '0')}`);
  }
  let fallback: string | undefined;
  for (let attempt = 0; attempt < 32; attempt += 1) {
    if (c.body.test(candidate)) {
      const result = c.check.validate(candidate);
      if (!result.isValid && reason(result.error) === 'checksum')
        return reshape(raw, prefix + candidate);
      if (!result.isValid) fallback ??= candidate;
    }
    candidate = redraw();
  }
  return reshape(raw, prefix + (fallback ?? breakCheck(candidate, c)));
}

/** Last resort: the first variant of the last digit that the validator refuses. */
function breakCheck(body: string, c: Country): string {
  const last = body.search(/[0-9][^0-9]*$/);
  for (let digit = 0; last >= 0 && digit < 10; digit += 1) {
    const variant = `${body.slice(0, last)}${digit}${body.slice(last + 1)}`;
    if (!c.check.validate(variant).isValid) return variant;
  }
  return body;
}
