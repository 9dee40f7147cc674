/**
 * Scores extraction against the card generator's ground truth: per field, right, wrong or
 * missing (null), after normalising case and spaces. Dates must be right or null; a wrong
 * date counts separately, because the contract says a date is never wrong in shape or value.
 */
import type { AadhaarExtraction } from '../../src/services/extract-aadhaar.js';
import type { PanExtraction } from '../../src/services/extract-pan.js';
import type { GeneratedCard } from '../fixtures/cards/index.js';

export type Outcome = 'right' | 'wrong' | 'missing';

export interface CardScore {
  readonly id: string;
  readonly kind: string;
  /** Field name to outcome, for the fields the card prints. */
  readonly fields: Record<string, Outcome>;
  /** A date or year returned that is not the printed one. */
  readonly wrongDates: number;
  /** The printed number fails Verhoeff but checksum_valid was true (or the reverse). */
  readonly checksumWrong: boolean;
  /** No card found in a card, or a card found in a letter. */
  readonly detectionWrong: boolean;
  /** The name returned is the relation line's person or label (`S/O: ...`, `Father : ...`). */
  readonly relationAsName: boolean;
}

/** Whether `name` is taken from a relation line: its label, or the person `careOf` names. */
function fromRelationLine(name: string | null, careOf: string | null): boolean {
  if (name === null) return false;
  if (/\b(S|D|W|C)\s*\/\s*O\b|father|husband|पिता|पति/i.test(name)) return true;
  const relative = careOf?.replace(/^[^:]*:\s*/, '') ?? null;
  return relative !== null && norm(name) === norm(relative);
}

const norm = (value: string | number | null | undefined): string =>
  String(value ?? '')
    .toUpperCase()
    .replace(/\s+/g, ' ')
    .trim();

function outcome(
  expected: string | number | null | undefined,
  actual: string | number | null | undefined,
): Outcome {
  if (actual === null || actual === undefined) return 'missing';
  return norm(expected) === norm(actual) ? 'right' : 'wrong';
}

export type Extraction = AadhaarExtraction | PanExtraction | 'no_document';

export function scoreCard(card: GeneratedCard, result: Extraction): CardScore {
  const truth = card.truth;
  const base = {
    id: card.id,
    kind: card.kind,
    fields: {},
    wrongDates: 0,
    checksumWrong: false,
    relationAsName: false,
  };
  if (truth.documentType === null) return { ...base, detectionWrong: result !== 'no_document' };
  if (result === 'no_document') return { ...base, detectionWrong: true };
  const fields: Record<string, Outcome> = {};
  let wrongDates = 0;
  let checksumWrong = false;
  let relationAsName = false;
  if (truth.documentType === 'aadhaar' && result.document_type === 'aadhaar') {
    const f = result.fields;
    fields['aadhaar_last4'] = outcome(truth.last4, f.aadhaar_last4);
    if (truth.sides.includes('front')) {
      fields['name'] = outcome(truth.name, f.name);
      fields['gender'] = outcome(truth.gender, f.gender);
      fields['birth'] =
        truth.dateOfBirth !== null
          ? outcome(truth.dateOfBirth, f.date_of_birth)
          : outcome(truth.yearOfBirth, f.year_of_birth);
    }
    if (truth.sides.includes('back')) {
      fields['pincode'] = outcome(truth.address?.pincode, f.address?.pincode);
    }
    // From the address on a back, or from an older front's relation line.
    if (truth.careOf !== null) fields['care_of'] = outcome(truth.careOf, f.care_of);
    if (f.date_of_birth !== null && f.date_of_birth !== truth.dateOfBirth) wrongDates += 1;
    if (f.year_of_birth !== null && f.year_of_birth !== truth.yearOfBirth) wrongDates += 1;
    checksumWrong = f.aadhaar_last4 !== null && result.checksum_valid !== truth.checksumValid;
    relationAsName = fromRelationLine(f.name, truth.careOf);
  } else if (truth.documentType === 'pan' && result.document_type === 'pan') {
    const f = result.fields;
    fields['pan'] = outcome(truth.pan, f.pan);
    fields['name'] = outcome(truth.name, f.name);
    fields['father_name'] = outcome(truth.fatherName, f.father_name);
    fields['birth'] = outcome(truth.dateOfBirth, f.date_of_birth);
    if (f.date_of_birth !== null && f.date_of_birth !== truth.dateOfBirth) wrongDates += 1;
  } else {
    return { ...base, detectionWrong: true };
  }
  return { ...base, fields, wrongDates, checksumWrong, relationAsName, detectionWrong: false };
}

export interface FieldRate {
  readonly right: number;
  readonly of: number;
  readonly rate: number;
}

export function fieldRates(scores: readonly CardScore[]): Record<string, FieldRate> {
  const rates: Record<string, FieldRate> = {};
  for (const score of scores) {
    for (const [field, result] of Object.entries(score.fields)) {
      const { right = 0, of = 0 } = rates[field] ?? {};
      const next = { right: right + (result === 'right' ? 1 : 0), of: of + 1 };
      rates[field] = { ...next, rate: next.right / next.of };
    }
  }
  return rates;
}
