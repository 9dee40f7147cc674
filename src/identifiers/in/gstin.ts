/**
 * GSTIN, India's Goods and Services Tax Identification Number (also the UIN of UN bodies and
 * embassies): 15 characters, a two-digit state code, ten characters that identify the holder
 * (a PAN for regular taxpayers), an entity number, a type letter (`Z` for regular taxpayers) and a
 * check character, Luhn mod 36 over the first fourteen.
 * Source: the GSTIN format and its mod-36 check character as the GST Network publishes them.
 *
 * Written here rather than taken from the npm `stdnum` port, whose validator rejects real
 * registrations: state 38 (Ladakh), 97 and 99, TDS GSTINs built on a TAN and non-resident,
 * OIDAR and UIN layouts (the type's published rule); its mod-36 helper is internal.
 *
 *   valid:   27AAPFU0939F1ZV, 38AAACP1234C1ZY, 9917SGP29001OST, 07DELA12345B1DE
 *   invalid: 27AAPFU0939F1ZW (check), 45AAPFU0939F1ZX (state), 27AAPXU0939F1ZU (holder code)
 */
import { PAN_HOLDER_TYPES } from './pan.js';
import { accept, reject, type Validation } from '../validation.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** 01-38 (38 is Ladakh), 97 (other territory), 99 (centre jurisdiction). */
function knownState(code: string): boolean {
  const n = Number(code);
  return (n >= 1 && n <= 38) || n === 97 || n === 99;
}

/** The check character of the first fourteen characters (Luhn mod 36, weights 1, 2, 1, ...). */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i += 1) {
    const product = ALPHABET.indexOf(first14.charAt(i)) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return ALPHABET.charAt((36 - (sum % 36)) % 36);
}

const PAN_BASED = /^[0-9]{2}[A-Z]{3}[A-Z][A-Z][0-9]{4}[A-Z][1-9A-Z][ZCS][0-9A-Z]$/;
const TAN_BASED = /^[0-9]{2}[A-Z]{4}[0-9]{5}[A-Z][1-9A-Z]D[0-9A-Z]$/;
/** Non-resident (NF), OIDAR (OS) and UIN (UN): year, ISO alpha-3 country, serial. */
const FOREIGN = /^[0-9]{2}[0-9]{2}[A-Z]{3}[0-9]{5}(NF|OS|UN)[0-9A-Z]$/;

export const GSTIN_LENGTH = 15;

export function validateGstin(value: string): Validation {
  const rule = 'GSTIN state code, layout and mod-36 check character';
  if (value.length !== GSTIN_LENGTH || !/^[0-9A-Z]+$/.test(value)) {
    return reject(rule, 'length_or_characters');
  }
  if (!knownState(value.slice(0, 2))) return reject(rule, 'unknown_state_code');
  if (gstinCheckCharacter(value.slice(0, 14)) !== value.charAt(14)) {
    return reject(rule, 'check_character');
  }
  if (PAN_BASED.test(value)) {
    return PAN_HOLDER_TYPES[value.charAt(5)] && value.slice(7, 11) !== '0000'
      ? accept(rule, 1)
      : reject(rule, 'embedded_pan');
  }
  if (TAN_BASED.test(value) || FOREIGN.test(value)) return accept(rule, 0.95);
  return reject(rule, 'layout');
}
