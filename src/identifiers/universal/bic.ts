/**
 * SWIFT_BIC (Business Identifier Code, ISO 9362; "SWIFT code").
 *
 * 8 or 11 characters: a 4-letter party prefix (the institution), the 2-letter ISO 3166-1 country
 * of the institution (SWIFT also uses XK for Kosovo), a 2-character location (second character
 * 0: a test BIC) and an optional 3-character branch (XXX: the head office). No check digit: the
 * country is the only thing to check, against ibantools' list (the maintained library
 * the type's published rule names). Any all-capital word of 8 or 11 letters has the shape
 * (HOSPITAL reads as HOSP-IT-AL), so a bare BIC is weak evidence, the type is off by default and
 * a label (BIC, SWIFT) counts.
 *
 * More information: https://www.swift.com/standards/data-standards/bic-business-identifier-code
 *
 *   DEUTDEFF, NEDSZAJJXXX   valid
 *   DEUTZZFF                invalid: country (user-assigned code, the stand-ins' space)
 *   DEU1DEFF                invalid: format (a digit in the institution)
 */
import { validateBIC, ValidationErrorsBIC } from 'ibantools';
import type { Draw } from '../global-rule.js';
import { drawLetters, reshape } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';
import { redrawClasses, type RuleBehaviour } from './behaviour.js';

/** Capitals and digits only (BICs are printed so): 8 or 11, not inside a longer word. */
const PATTERN = /(?<![0-9A-Za-z])[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?(?![0-9A-Za-z])/g;

function validate(value: string): Validation {
  const rule = 'ISO 9362: institution, ISO 3166 country, location, optional branch';
  if (value.length !== 8 && value.length !== 11) return reject(rule, 'length');
  if (!/^[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(value)) return reject(rule, 'format');
  const result = validateBIC(value);
  if (result.errorCodes.includes(ValidationErrorsBIC.NoBICCountry)) return reject(rule, 'country');
  if (!result.valid) return reject(rule, 'format');
  // Digits in the location or branch are usual for banks and rare in words.
  return accept(rule, /[0-9]/.test(value) ? 0.7 : 0.6);
}

/**
 * A random institution with the country `ZZ`, user-assigned in ISO 3166-1 and never a country
 * (S); location redrawn in its classes, branch `XXX` kept (it only says "head office").
 */
function pseudonym(raw: string, draw: Draw): string {
  const value = raw.toUpperCase();
  const branch = value.slice(8);
  const fresh =
    drawLetters(draw, 4) +
    'ZZ' +
    redrawClasses(value.slice(6, 8), draw) +
    (branch === 'XXX' ? branch : redrawClasses(branch, draw));
  return reshape(raw, fresh);
}

export const SWIFT_BIC_RULE: RuleBehaviour = {
  pattern: PATTERN,
  compact: (raw) => raw.toUpperCase(),
  validate,
  labels: /\bbic\b|swift|bank\s+identifier|\bbank\b/i,
  pseudonym,
};
