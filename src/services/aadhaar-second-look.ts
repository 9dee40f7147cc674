/**
 * A second look at an Aadhaar page where no number was read: read again from its dark print
 * alone (ocr/print-ink.ts). A stamp, a signature or a SAMPLE mark in colour across the number
 * can hide the whole line from the detector (fused with the mark into one shapeless region) or
 * turn its digits into others; without the mark the number reads as printed. Only on a page that
 * may be an Aadhaar card or letter (aadhaar-context.ts), so other pages pay nothing.
 */
import { mayBeAadhaarPage } from '../detection/aadhaar-context.js';
import type { Finding } from '../detection/types.js';
import { printInk } from '../ocr/print-ink.js';
import type { RasterImage } from '../domain/raster.js';
import type { PageText } from '../domain/text-layer.js';
import type { OcrEngine } from '../ocr/types.js';

/**
 * The second look for a masking target that finds numbers with `find`: every number found on
 * the print alone (a card's front and back copies), their character boxes in `raster`'s pixels
 * (the same size).
 */
export function readUnderMarks(
  find: (page: PageText) => readonly Finding[],
): (page: PageText, raster: RasterImage, ocr: OcrEngine) => Promise<readonly Finding[]> {
  return async (page, raster, ocr) => {
    if (page.source !== 'ocr' || !mayBeAadhaarPage(page)) return [];
    return find(await ocr.read(printInk(raster), page.page, 'numbers'));
  };
}
