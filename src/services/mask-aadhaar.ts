/**
 * Masking Aadhaar numbers: covers the first eight digits of every number found (the last four
 * stay readable) and every legacy XML QR (it holds the full number); with `maskQr: 'all'` every
 * QR code. On an Aadhaar page a number misread under a stamp or a pen line is covered too,
 * unverified (aadhaar-damaged.ts), and a page where none was read is read again from its dark
 * print alone (aadhaar-second-look.ts); a copy of a number found there that a mark fused with
 * other lines, or left only partly readable, is read again without thin strokes
 * (aadhaar-copies.ts). The pipeline itself is mask-document.ts.
 */
import type { QrKind } from '../cards/qr-scan.js';
import { findAadhaarOnPage } from '../detection/aadhaar.js';
import { findDamagedAadhaar } from '../detection/aadhaar-damaged.js';
import type { Finding } from '../detection/types.js';
import { INDIAN_FORMATS } from '../documents/document.js';
import { holdsAadhaarNumber } from '../identifiers/in/aadhaar.js';
import type { PageText } from '../domain/text-layer.js';
import { AADHAAR_COVERED } from '../redaction/operators/partial-cover.js';
import { readDamagedCopies } from './aadhaar-copies.js';
import { readUnderMarks } from './aadhaar-second-look.js';
import { fileService } from './context.js';
import {
  maskDocument,
  maskingOptions,
  type MaskFileOptions,
  type MaskQr,
  type MaskResult,
  type MaskTarget,
} from './mask-document.js';

export type { MaskQr, MaskResult } from './mask-document.js';

/**
 * A symbol found but not decodable is covered too: it may be the XML QR, and what cannot be
 * decoded from this copy cannot be verified from it either.
 */
const QR_TO_COVER: Record<MaskQr, ReadonlySet<QrKind>> = {
  xml: new Set(['aadhaar_xml', 'unreadable']),
  all: new Set(['aadhaar_xml', 'aadhaar_secure', 'aadhaar_signed_xml', 'other', 'unreadable']),
};

/** The finder's numbers, and on an Aadhaar page those misread under a mark (fail closed). */
function findToMask(page: PageText): Finding[] {
  const { findings } = findAadhaarOnPage(page);
  return [...findings, ...findDamagedAadhaar(page, findings)];
}

export const AADHAAR_TARGET: MaskTarget = {
  find: findToMask,
  secondLook: readUnderMarks(findToMask),
  copiesLook: readDamagedCopies,
  covered: AADHAAR_COVERED,
  coversQr: (symbol, maskQr) => QR_TO_COVER[maskQr].has(symbol.kind),
  purpose: 'numbers',
  normalise: (text) => text.replace(/\D/g, ''),
  // Where a cover meets other digits, what is left may spell another valid number.
  appears: holdsAadhaarNumber,
};

/** The service entry point: file bytes in, masked file out (used by the API, bulk and CLI). */
export const maskAadhaarFile = fileService(
  INDIAN_FORMATS,
  (document, options: MaskFileOptions, ocr, context): Promise<MaskResult> =>
    maskDocument(document, AADHAAR_TARGET, maskingOptions(options, context), ocr),
);
