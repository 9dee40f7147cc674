/**
 * Masking PAN numbers: covers characters 2 to 8 of every PAN found, so the first two and the
 * last stay readable (`AB*******F`). A QR code is covered when its text holds a PAN-shaped word
 * or when it cannot be decoded (what it holds is then unknown); with `maskQr: 'all'` every QR
 * code. A PAN the recogniser merged ("JJ" read as one J) is read again from its line stretched
 * (merged-pan.ts); on a PAN card where no PAN could be read still, a word that may be it is
 * covered whole (fail closed; detection/pan.ts). The pipeline itself is mask-document.ts.
 */
import { findPanOnPage, findUnreadPanOnCard } from '../detection/pan.js';
import { INDIAN_FORMATS } from '../documents/document.js';
import { PAN_COVERED } from '../redaction/operators/partial-cover.js';
import { fileService } from './context.js';
import { findMergedPan } from './merged-pan.js';
import {
  maskDocument,
  maskingOptions,
  type MaskFileOptions,
  type MaskResult,
  type MaskTarget,
} from './mask-document.js';

export const PAN_TARGET: MaskTarget = {
  find: (page) => findPanOnPage(page).findings,
  covered: PAN_COVERED,
  coversQr: (symbol, maskQr) => maskQr === 'all' || symbol.holdsPan || symbol.kind === 'unreadable',
  purpose: 'text',
  normalise: (text) => text.toUpperCase().replace(/[^A-Z0-9]/g, ''),
  suspects: findUnreadPanOnCard,
  secondLook: async (page, raster, ocr) => {
    const merged = await findMergedPan(page, raster, ocr);
    return merged ? [merged] : [];
  },
};

/** The service entry point: file bytes in, masked file out (used by the API, bulk and CLI). */
export const maskPanFile = fileService(
  INDIAN_FORMATS,
  (document, options: MaskFileOptions, ocr, context): Promise<MaskResult> =>
    maskDocument(document, PAN_TARGET, maskingOptions(options, context), ocr),
);
