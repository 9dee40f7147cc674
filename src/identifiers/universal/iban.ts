/**
 * IBAN (International Bank Account Number, ISO 13616).
 *
 * A two-letter ISO 3166 country code, two check digits and the country's BBAN (up to 30 letters
 * and digits in a structure of the SWIFT IBAN Registry), printed in groups of four separated
 * by spaces (paper form) or run together (electronic form). The check is ISO 7064 MOD 97-10:
 * move the first four characters to the end, read letters as 10-35, and the number mod 97 is 1;
 * generated check digits are therefore always 02-98. Some countries add a national check over
 * the bank, branch and account (Belgium, France, Spain, ...).
 *
 * Source: the type's published rule; the country lengths, BBAN structures, mod 97 and national
 * checks are ibantools' (the SWIFT registry as a maintained library). Countries ibantools lists
 * outside the registry (IBAN-like national formats) are accepted with less confidence, except
 * BI, DJ, FK and HN, which the registry (v101) has.
 *
 * More information: https://www.swift.com/standards/data-standards/iban
 *
 *   GB82 WEST 1234 5698 7654 32   valid (the textbook example)
 *   GB83 WEST 1234 5698 7654 32   invalid: checksum
 *   GB82 WEST 1234 5698 7654 3    invalid: length
 */
import { getCountrySpecifications, validateIBAN, ValidationErrorsIBAN } from 'ibantools';
import type { Draw } from '../global-rule.js';
import type { FindHints, Span } from '../rule.js';
import { reshape } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';
import { redrawClasses, type RuleBehaviour } from './behaviour.js';
import { containsCard } from './payment-card.js';

const SPECS = getCountrySpecifications();
/** In registry v101 though ibantools lists them as national formats. */
const REGISTRY_V101_EXTRA = new Set(['BI', 'DJ', 'FK', 'HN']);

/**
 * A country code, check digits and letters/digits, a single space or hyphen allowed between
 * characters (`GB82 WEST ...`, `DE89-3704-...`); in capitals, or all in lower case as people
 * type it; not begun inside a longer word. One character per repetition: linear.
 */
const RUN =
  /(?<![A-Za-z0-9])(?:[A-Z]{2}[0-9]{2}(?:[ -]?[A-Z0-9]){8,32}|[a-z]{2}[0-9]{2}(?:[ -]?[a-z0-9]){8,32})/g;
const SEPARATOR = /[ -]/;

/**
 * Each run cut to its country's length where that falls at its end or before a space (the run
 * may have taken the next words, `... 7034 EUR`); a run with no such cut (unknown country, too
 * short) ends before the next word that starts like an IBAN. Scanning resumes after the cut,
 * so an IBAN right after another is found too.
 */
function* find(text: string, _hints: FindHints): Iterable<Span> {
  const run = new RegExp(RUN.source, 'g');
  for (let m = run.exec(text); m; m = run.exec(text)) {
    const raw = m[0];
    const length = SPECS[raw.slice(0, 2).toUpperCase()]?.chars ?? 0;
    let end = -1;
    let count = 0;
    for (let i = 0; i < raw.length && end < 0; i += 1) {
      if (SEPARATOR.test(raw.charAt(i))) continue;
      count += 1;
      const after = raw.charAt(i + 1);
      if (count === length && (after === '' || SEPARATOR.test(after))) end = i + 1;
    }
    if (end < 0) {
      const next = raw.slice(4).search(/[ -][A-Za-z]{2}[0-9]{2}/);
      end = next < 0 ? raw.length : next + 4;
    }
    yield { start: m.index, end: m.index + end };
    run.lastIndex = m.index + end;
  }
}

/** Separators out, capitals: the electronic form. */
function compactIban(raw: string): string {
  return raw.replace(/[ -]/g, '').toUpperCase();
}

const REASONS: readonly (readonly [ValidationErrorsIBAN, string])[] = [
  [ValidationErrorsIBAN.NoIBANCountry, 'country'],
  [ValidationErrorsIBAN.WrongBBANLength, 'length'],
  [ValidationErrorsIBAN.WrongBBANFormat, 'format'],
  [ValidationErrorsIBAN.ChecksumNotNumber, 'format'],
  [ValidationErrorsIBAN.WrongIBANChecksum, 'checksum'],
  [ValidationErrorsIBAN.WrongAccountBankBranchChecksum, 'checksum'],
];

function validate(value: string): Validation {
  const rule = 'ISO 13616: country length and BBAN structure, ISO 7064 mod 97-10';
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(value)) return reject(rule, 'format');
  const result = validateIBAN(value, { allowQRIBAN: true });
  if (!result.valid) {
    const found = REASONS.find(([code]) => result.errorCodes.includes(code));
    return reject(rule, found?.[1] ?? 'format');
  }
  const country = value.slice(0, 2);
  const registry = SPECS[country]?.IBANRegistry === true || REGISTRY_V101_EXTRA.has(country);
  return accept(rule, registry ? 0.95 : 0.75);
}

/**
 * The same country, length, grouping and BBAN character classes, a random BBAN and check digits
 * `00` (S): mod 97 makes them 02-98, so no IBAN carries 00. Redrawn while its digits would read
 * as a valid card number (an invalid IBAN does not cover them on the next pass).
 */
function pseudonym(raw: string, draw: Draw): string {
  const value = compactIban(raw);
  let out = '';
  for (let attempt = 0; attempt < 8; attempt += 1) {
    out = reshape(raw, value.slice(0, 2) + '00' + redrawClasses(value.slice(4), draw));
    if (!containsCard(out)) break;
  }
  return out;
}

export const IBAN_RULE: RuleBehaviour = {
  find,
  compact: compactIban,
  validate,
  labels: /\biban\b|account|konto|compte|cuenta|conto|rekening|\bbank\b/i,
  pseudonym,
};
