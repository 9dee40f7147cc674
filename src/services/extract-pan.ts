/**
 * Extracting PAN card fields (README, Extract PAN response). The PAN is returned in full;
 * `holder_type` is decoded from its fourth character; `format_valid` is the structural check
 * only. The QR code of a newer card is not read. Not a PAN card: NoDocumentError.
 */
import type { Read } from '../cards/aadhaar-fields.js';
import { LOW_CONTRAST_SPREAD } from '../cards/image-quality.js';
import { readPanCard, type PanCardText } from '../cards/pan-fields.js';
import { dominantOrientation, placeLines } from '../cards/placed-lines.js';
import { INDIAN_FORMATS, type Document } from '../documents/document.js';
import { hasPanShape, isValidPan, panHolderType } from '../identifiers/in/pan.js';
import type { OcrEngine } from '../ocr/types.js';
import { readCardDocument, type CardReading } from './card-reading.js';
import { fileService } from './context.js';
import { NoDocumentError } from './errors.js';
import { findMergedPan } from './merged-pan.js';

/**
 * - `low_contrast`, `rotated_input`: as for Aadhaar.
 * - `pan_not_found`: the card was recognised but no PAN could be read on it.
 * - `pan_structure_invalid`: the PAN read has the right shape but a holder code that is not
 *   issued or a serial of 0000, so it is probably misread.
 * - `name_not_found`, `father_name_not_found`, `date_of_birth_not_found`: that field is null.
 */
export type PanWarning =
  | 'low_contrast'
  | 'rotated_input'
  | 'pan_not_found'
  | 'pan_structure_invalid'
  | 'name_not_found'
  | 'father_name_not_found'
  | 'date_of_birth_not_found';

export interface PanFields {
  pan: string | null;
  name: string | null;
  father_name: string | null;
  date_of_birth: string | null;
  holder_type: string | null;
}

export interface PanExtraction {
  success: true;
  document_type: 'pan';
  fields: PanFields;
  format_valid: boolean;
  warnings: PanWarning[];
  /** Per field, as for Aadhaar; `holder_type` shares the PAN's. */
  confidence?: { [K in keyof PanFields]: number | null };
}

function warningsOf(card: PanCardText, reading: CardReading): PanWarning[] {
  const warnings: PanWarning[] = [];
  if (reading.contrast !== null && reading.contrast < LOW_CONTRAST_SPREAD)
    warnings.push('low_contrast');
  if (dominantOrientation(placeLines(reading.pages)) !== 0) warnings.push('rotated_input');
  if (!card.pan) warnings.push('pan_not_found');
  else if (hasPanShape(card.pan.value) && !isValidPan(card.pan.value))
    warnings.push('pan_structure_invalid');
  if (!card.name) warnings.push('name_not_found');
  if (!card.fatherName) warnings.push('father_name_not_found');
  if (!card.dateOfBirth) warnings.push('date_of_birth_not_found');
  return warnings;
}

export function describePan(
  card: PanCardText,
  reading: CardReading,
  includeConfidence: boolean,
): PanExtraction {
  const pan = card.pan?.value ?? null;
  const round = (r: Read<unknown> | null): number | null =>
    r ? Math.round(r.confidence * 100) / 100 : null;
  const fields: PanFields = {
    pan,
    name: card.name?.value ?? null,
    father_name: card.fatherName?.value ?? null,
    date_of_birth: card.dateOfBirth?.value ?? null,
    holder_type: pan && hasPanShape(pan) ? panHolderType(pan) : null,
  };
  return {
    success: true,
    document_type: 'pan',
    fields,
    format_valid: pan !== null && hasPanShape(pan),
    warnings: warningsOf(card, reading),
    ...(includeConfidence
      ? {
          confidence: {
            pan: round(card.pan),
            name: round(card.name),
            father_name: round(card.fatherName),
            date_of_birth: round(card.dateOfBirth),
            holder_type: fields.holder_type === null ? null : round(card.pan),
          },
        }
      : {}),
  };
}

export async function extractPan(
  document: Document,
  includeConfidence: boolean,
  ocr: OcrEngine,
  pdfDpi: number,
): Promise<PanExtraction> {
  const reading = await readCardDocument(document, ocr, pdfDpi);
  const read = readPanCard(reading.pages);
  const card = read.pan ? read : { ...read, pan: await rereadMergedPan(reading, ocr) };
  // A PAN alone (on a letter, a form) is not a card; a card's header or labels without a
  // legible PAN still are one (reported with `pan_not_found`).
  if (!card.marked || (!card.pan && !card.name)) {
    throw new NoDocumentError('No PAN card was found in the document.');
  }
  return describePan(card, reading, includeConfidence);
}

/** No PAN read: the second look for one the recogniser merged (merged-pan.ts), page by page. */
async function rereadMergedPan(reading: CardReading, ocr: OcrEngine): Promise<Read<string> | null> {
  for (const [index, page] of reading.pages.entries()) {
    const raster = reading.rasters[index];
    if (!raster) continue;
    const found = await findMergedPan(page, raster, ocr);
    if (found) return { value: found.value, confidence: found.confidence };
  }
  return null;
}

export const extractPanFile = fileService(
  INDIAN_FORMATS,
  (document, includeConfidence: boolean, ocr, context): Promise<PanExtraction> =>
    extractPan(document, includeConfidence, ocr, context.pdfOcrDpi),
);
