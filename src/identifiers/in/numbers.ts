/**
 * The Indian identifiers that carry no published check digit: validated by structure alone
 * (and, for the voter EPIC, a checksum the libraries apply but ECI never published, used for
 * confidence only). Sources: each number's published format (README: Indian identifiers).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { stdnumValidator } from '../stdnum-validator.js';
import { accept, reject, type Validation } from '../validation.js';

const EPIC = stdnumValidator('IN', 'epic');

/**
 * Indian passport number: a letter and seven digits (`A1234567`). No issuer list of letters
 * and no check digit outside an MRZ exist, so the shape is all there is; on its own it is weak
 * evidence (invoice and roll numbers share it) and context decides.
 */
export function validatePassportIn(value: string): Validation {
  const rule = 'one letter and seven digits';
  return /^[A-Z][0-9]{7}$/.test(value) ? accept(rule, 0.5) : reject(rule, 'format');
}

/**
 * Voter EPIC: three letters and seven digits. python-stdnum and npm `stdnum` treat the last
 * digit as a Luhn check over the seven; ECI's handbook says there is a check digit but not
 * which, so a Luhn failure lowers confidence and never rejects (the type's published rule).
 *
 *   ABC1234566 (Luhn passes), ABC1234565 (accepted, less sure), AB12345678 (rejected)
 */
export function validateVoterEpic(value: string): Validation {
  const rule = 'three letters and seven digits (Luhn over the digits raises confidence)';
  if (!/^[A-Z]{3}[0-9]{7}$/.test(value)) return reject(rule, 'format');
  return accept(rule, EPIC.validate(value).isValid ? 0.85 : 0.55);
}

/** IFSC: bank code (four letters), `0`, branch code (six letters or digits). No checksum. */
export function validateIfsc(value: string): Validation {
  const rule = 'four-letter bank code, 0, six-character branch code';
  return /^[A-Z]{4}0[A-Z0-9]{6}$/.test(value) ? accept(rule, 0.8) : reject(rule, 'format');
}

/**
 * The ten national digits of an Indian number whose first digit is in `first` (a character
 * class), once a `+91`, `0091`, `91` or trunk `0` prefix is gone, and libphonenumber's reading.
 */
function indianNumber(
  digits: string,
  first: string,
): { parsed?: ReturnType<typeof parsePhoneNumberFromString>; reason?: string } {
  const national = new RegExp(`^(?:0091|91|0)?([${first}][0-9]{9})$`).exec(digits)?.[1];
  if (!national) return { reason: 'format' };
  const parsed = parsePhoneNumberFromString(`+91${national}`);
  return parsed?.isValid() ? { parsed } : { reason: 'not_a_valid_number' };
}

/**
 * Indian mobile number: ten digits starting 6-9 once a `+91`, `0091`, `91` or trunk `0` prefix is
 * gone, and a mobile by libphonenumber's metadata. Toll-free and landline numbers are phone
 * numbers but no person's, and are refused.
 */
export function validatePhoneIn(digits: string): Validation {
  const rule = 'Indian mobile: ten digits starting 6-9, optional +91/91/0 prefix (libphonenumber)';
  const { parsed, reason } = indianNumber(digits, '6-9');
  if (!parsed) return reject(rule, reason ?? 'format');
  const type = parsed.getType();
  if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return reject(rule, 'not_a_mobile');
  return accept(rule, digits.length > 10 ? 0.9 : 0.75);
}

/**
 * Any Indian number in libphonenumber's metadata (landline, toll-free, mobile). A landline is a
 * person's number only when a phone label says so ("Phone: 080 4123 4567"); the finder asks
 * for one.
 */
export function validateLabelledPhoneIn(digits: string): Validation {
  const rule = 'Indian number of any type after a phone label (libphonenumber)';
  const { parsed, reason } = indianNumber(digits, '1-9');
  return parsed ? accept(rule, 0.7) : reject(rule, reason ?? 'format');
}

/**
 * Bank account number: nine to eighteen digits, no published structure or checksum. Accepted
 * only with a label or an IFSC nearby (the finder decides that); here, length alone.
 */
export function validateBankAccount(digits: string): Validation {
  const rule = 'nine to eighteen digits beside an account label or an IFSC';
  return /^[0-9]{9,18}$/.test(digits) ? accept(rule, 0.6) : reject(rule, 'length');
}
