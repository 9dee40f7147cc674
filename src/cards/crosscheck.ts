/**
 * The printed card against the data UIDAI signed into its Secure QR: each field the card prints
 * and OCR read is compared with its signed counterpart; a field not printed or not read is not
 * compared (and not held against the card). Results name fields, never their values.
 */
import type { AadhaarCardText } from './aadhaar-fields.js';
import { sameName } from './name-match.js';
import type { SecureQrFields } from './secure-qr.js';

export type ComparedField = 'name' | 'birth' | 'last4' | 'gender' | 'pincode';

export type MismatchId =
  | 'qr_name_mismatch'
  | 'qr_dob_mismatch'
  | 'qr_aadhaar_last4_mismatch'
  | 'qr_gender_mismatch'
  | 'qr_pincode_mismatch';

export interface CrossCheck {
  /** Fields that were printed, read and compared. */
  readonly compared: readonly ComparedField[];
  readonly mismatches: readonly MismatchId[];
}

/** The last four digits the card prints: of the full number, or of a masked one. */
export function printedLast4(card: AadhaarCardText): string | null {
  return card.number?.value.slice(-4) ?? card.maskedLast4?.value ?? null;
}

/**
 * Birth: a printed date against a signed date; where either holds only a year (cards printed
 * "Year of Birth", QRs of people enrolled with a year), the years.
 */
function sameBirth(card: AadhaarCardText, signed: SecureQrFields): boolean | null {
  const printedDate = card.birthLabel === 'date' ? (card.dateOfBirth?.value ?? null) : null;
  const printedYear =
    card.birthLabel === 'year' ? (card.yearOfBirth?.value ?? null) : printedDate?.slice(0, 4);
  if (printedDate && signed.dateOfBirth) return printedDate === signed.dateOfBirth;
  const signedYear = signed.yearOfBirth ?? signed.dateOfBirth?.slice(0, 4) ?? null;
  if (printedYear == null || signedYear === null) return null;
  return String(printedYear) === String(signedYear);
}

export function crossCheck(card: AadhaarCardText, signed: SecureQrFields): CrossCheck {
  const compared: ComparedField[] = [];
  const mismatches: MismatchId[] = [];
  const compare = (field: ComparedField, same: boolean | null, signal: MismatchId) => {
    if (same === null) return;
    compared.push(field);
    if (!same) mismatches.push(signal);
  };
  const name = card.name?.value;
  compare('name', name && signed.name ? sameName(name, signed.name) : null, 'qr_name_mismatch');
  compare('birth', sameBirth(card, signed), 'qr_dob_mismatch');
  const last4 = printedLast4(card);
  compare(
    'last4',
    last4 && signed.last4 ? last4 === signed.last4 : null,
    'qr_aadhaar_last4_mismatch',
  );
  const gender = card.gender?.value;
  compare(
    'gender',
    gender && signed.gender ? gender === signed.gender : null,
    'qr_gender_mismatch',
  );
  const pincode = card.address?.value.pincode;
  compare(
    'pincode',
    pincode && signed.pincode ? pincode === signed.pincode : null,
    'qr_pincode_mismatch',
  );
  return { compared, mismatches };
}
