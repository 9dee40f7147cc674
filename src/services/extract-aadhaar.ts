/**
 * Extracting Aadhaar card fields (README, Extract Aadhaar response). The card's printed
 * text is the source; a readable Secure QR only confirms and repairs what OCR read of fields the
 * card prints (a name misread by a letter, a date by a digit), and never adds a field the card
 * does not show. Not an Aadhaar card: NoDocumentError.
 */
import {
  readAadhaarCard,
  type AadhaarCardText,
  type Gender,
  type Read,
} from '../cards/aadhaar-fields.js';
import { LOW_CONTRAST_SPREAD } from '../cards/image-quality.js';
import { dominantOrientation, placeLines } from '../cards/placed-lines.js';
import { decodeSecureQr } from '../cards/secure-qr.js';
import { editDistance, similarity } from '../cards/text-values.js';
import { INDIAN_FORMATS, type Document } from '../documents/document.js';
import { maskAadhaar } from '../identifiers/in/aadhaar.js';
import type { OcrEngine } from '../ocr/types.js';
import { lookAgainAtFields } from './aadhaar-field-look.js';
import { readCardDocument, type CardReading } from './card-reading.js';
import { fileService } from './context.js';
import { NoDocumentError } from './errors.js';

export type AadhaarWarning =
  'low_contrast' | 'single_side_only' | 'rotated_input' | 'partial_address' | 'year_of_birth_only';

export interface AadhaarFields {
  name: string | null;
  aadhaar_number: string | null;
  aadhaar_last4: string | null;
  date_of_birth: string | null;
  year_of_birth: number | null;
  gender: Gender | null;
  care_of: string | null;
  address: { full: string; pincode: string | null } | null;
  vid_detected: boolean;
}

/** Per field: the mean confidence (0-1) of the characters it was read from; 1 when the signed QR confirms it. */
export type AadhaarConfidence = { [K in keyof Omit<AadhaarFields, 'vid_detected'>]: number | null };

export interface AadhaarExtraction {
  success: true;
  document_type: 'aadhaar';
  sides_detected: ('front' | 'back')[];
  fields: AadhaarFields;
  checksum_valid: boolean;
  warnings: AadhaarWarning[];
  confidence?: AadhaarConfidence;
}

export interface ExtractOptions {
  readonly includeConfidence: boolean;
  /** Return the full number; the caller has checked the key's entitlement. */
  readonly reveal: boolean;
}

/** Below this mean confidence an address reading is flagged `partial_address`. */
const ADDRESS_CONFIDENCE = 0.8;

/** What the signed QR holds that can confirm a printed field. */
interface SignedFields {
  readonly name: string | null;
  readonly dateOfBirth: string | null;
  readonly yearOfBirth: number | null;
  readonly pincode: string | null;
  readonly careOf: string | null;
}

function signedFields(reading: CardReading): SignedFields | null {
  for (const qr of reading.qrs) {
    if (qr.secureText === undefined) continue;
    try {
      const { fields } = decodeSecureQr(qr.secureText);
      return {
        name: fields.name || null,
        dateOfBirth: fields.dateOfBirth,
        yearOfBirth:
          fields.yearOfBirth ??
          (fields.dateOfBirth ? Number(fields.dateOfBirth.slice(0, 4)) : null),
        pincode: fields.pincode || null,
        careOf: fields.careOf || null,
      };
    } catch {
      // An undecodable QR confirms nothing; the printed text stands on its own.
    }
  }
  return null;
}

const confirmed = <T>(value: T): Read<T> => ({ value, confidence: 1 });

/** OCR's readings, each replaced by the signed value when the two differ only as OCR errs. */
function confirm(card: AadhaarCardText, signed: SignedFields | null): AadhaarCardText {
  if (!signed) return card;
  let { name, dateOfBirth, yearOfBirth, address, careOf } = card;
  // The QR's care-of is the printed one when the two differ only as OCR errs (a lost space).
  if (careOf && signed.careOf && similarity(careOf.value, signed.careOf) >= 0.85) {
    careOf = confirmed(signed.careOf);
  }
  if (name && signed.name && similarity(name.value, signed.name) >= 0.75)
    name = confirmed(signed.name);
  if (signed.dateOfBirth && card.birthLabel === 'date') {
    if (!dateOfBirth || editDistance(dateOfBirth.value, signed.dateOfBirth) <= 2) {
      dateOfBirth = confirmed(signed.dateOfBirth);
    }
  }
  if (signed.yearOfBirth !== null && card.birthLabel === 'year') {
    const year = signed.yearOfBirth;
    if (!yearOfBirth || editDistance(String(yearOfBirth.value), String(year)) <= 1) {
      yearOfBirth = confirmed(year);
    }
  }
  const pin = address?.value.pincode;
  if (address && signed.pincode && (!pin || editDistance(pin, signed.pincode) <= 2)) {
    const body = pin
      ? address.value.full.slice(0, -pin.length).replace(/[\s-]+$/, '')
      : address.value.full;
    address = {
      value: { full: `${body} - ${signed.pincode}`, pincode: signed.pincode },
      confidence: address.confidence,
    };
  }
  return { ...card, name, dateOfBirth, yearOfBirth, address, careOf };
}

/** Whether what was read is an Aadhaar card at all (else 422 `no_document_detected`). */
function isAadhaarCard(card: AadhaarCardText, reading: CardReading): boolean {
  const aadhaarQr = reading.qrs.some((q) => q.kind.startsWith('aadhaar_'));
  const sided = card.front || card.back;
  // A twelve-digit number alone is no card (an invoice's order number is one), nor is the word
  // "address" over a paragraph: a card's address ends in its pincode.
  return (
    (sided && (card.number !== null || card.maskedLast4 !== null || card.numberDamaged)) ||
    aadhaarQr ||
    (sided && card.address !== null && card.address.value.pincode !== null) ||
    // A front whose number is illegible still shows the holder's name, birth and gender.
    (card.name !== null && card.birthLabel !== null && card.gender !== null)
  );
}

function warningsOf(card: AadhaarCardText, reading: CardReading): AadhaarWarning[] {
  const warnings: AadhaarWarning[] = [];
  if (reading.contrast !== null && reading.contrast < LOW_CONTRAST_SPREAD)
    warnings.push('low_contrast');
  if (card.front !== card.back) warnings.push('single_side_only');
  if (dominantOrientation(placeLines(reading.pages)) !== 0) warnings.push('rotated_input');
  if (
    card.back &&
    (!card.address ||
      card.address.value.pincode === null ||
      card.address.confidence < ADDRESS_CONFIDENCE)
  ) {
    warnings.push('partial_address');
  }
  if (card.birthLabel === 'year' && card.yearOfBirth !== null) warnings.push('year_of_birth_only');
  return warnings;
}

function grouped(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

export function describeAadhaar(
  read: AadhaarCardText,
  reading: CardReading,
  options: ExtractOptions,
): AadhaarExtraction {
  const card = confirm(read, signedFields(reading));
  const digits = card.number?.value ?? null;
  const last4 = digits ? digits.slice(-4) : (card.maskedLast4?.value ?? null);
  const numberConfidence = card.number?.confidence ?? card.maskedLast4?.confidence ?? null;
  const fields: AadhaarFields = {
    name: card.name?.value ?? null,
    aadhaar_number: digits
      ? options.reveal
        ? grouped(digits)
        : maskAadhaar(digits)
      : last4
        ? maskAadhaar(last4)
        : null,
    aadhaar_last4: last4,
    date_of_birth: card.dateOfBirth?.value ?? null,
    year_of_birth: card.birthLabel === 'year' ? (card.yearOfBirth?.value ?? null) : null,
    gender: card.gender?.value ?? null,
    care_of: card.careOf?.value ?? null,
    address: card.address?.value ?? null,
    vid_detected: card.vidDetected,
  };
  const round = (r: Read<unknown> | null): number | null =>
    r ? Math.round(r.confidence * 100) / 100 : null;
  const sides: ('front' | 'back')[] = [];
  if (card.front) sides.push('front');
  if (card.back) sides.push('back');
  return {
    success: true,
    document_type: 'aadhaar',
    sides_detected: sides,
    fields,
    checksum_valid: card.checksumValid,
    warnings: warningsOf(card, reading),
    ...(options.includeConfidence
      ? {
          confidence: {
            name: round(card.name),
            aadhaar_number:
              numberConfidence === null ? null : Math.round(numberConfidence * 100) / 100,
            aadhaar_last4:
              numberConfidence === null ? null : Math.round(numberConfidence * 100) / 100,
            date_of_birth: round(card.dateOfBirth),
            year_of_birth: fields.year_of_birth === null ? null : round(card.yearOfBirth),
            gender: round(card.gender),
            care_of: round(card.careOf),
            address: round(card.address),
          },
        }
      : {}),
  };
}

/** Fields that carry something read from the card (X-Extracted-Fields); `vid_detected` counts when true. */
export function extractedFieldCount(fields: object): number {
  return Object.values(fields).filter((v) => v !== null && v !== false).length;
}

export async function extractAadhaar(
  document: Document,
  options: ExtractOptions,
  ocr: OcrEngine,
  pdfDpi: number,
): Promise<AadhaarExtraction> {
  const reading = await readCardDocument(document, ocr, pdfDpi);
  return describeAadhaar(await aadhaarCardOf(reading, ocr), reading, options);
}

/**
 * The card's fields from its reading, with the second look at rows read without their value
 * (aadhaar-field-look.ts); `NoDocumentError` when the reading shows no Aadhaar card.
 */
export async function aadhaarCardOf(
  reading: CardReading,
  ocr: OcrEngine,
): Promise<AadhaarCardText> {
  const read = readAadhaarCard(reading.pages);
  if (!isAadhaarCard(read, reading))
    throw new NoDocumentError('No Aadhaar card was found in the document.');
  return lookAgainAtFields(read, reading, ocr);
}

export const extractAadhaarFile = fileService(
  INDIAN_FORMATS,
  (document, options: ExtractOptions, ocr, context): Promise<AadhaarExtraction> =>
    extractAadhaar(document, options, ocr, context.pdfOcrDpi),
);
