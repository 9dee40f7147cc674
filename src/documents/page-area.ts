/**
 * Refuses to rasterise a PDF page whose pixels at the requested resolution exceed the image
 * pixel limit (a 200 x 200 inch page, `/UserUnit 75`, a 1e9 pt MediaBox), and turns MuPDF's
 * own failures on a page into a `DocumentError` instead of an unexplained 500.
 */
import type { mupdf as MuPdf } from './mupdf.js';
import { DocumentError } from '../domain/errors.js';
import { DEFAULT_PDF_LIMITS } from './pdf-limits.js';

/**
 * The limit intake opened each PDF with, so that every render of it obeys the configured
 * PARDA_MAX_IMAGE_MEGAPIXELS without each service threading it through.
 */
const pixelLimits = new WeakMap<MuPdf.PDFDocument, number>();

export function recordPixelLimit(pdf: MuPdf.PDFDocument, maxPixels: number): void {
  pixelLimits.set(pdf, maxPixels);
}

export function pixelLimitOf(pdf: MuPdf.PDFDocument): number {
  return pixelLimits.get(pdf) ?? DEFAULT_PDF_LIMITS.maxImagePixels;
}

function inches(points: number): string {
  return (points / 72).toFixed(points < 7200 ? 1 : 0);
}

/**
 * Throws `page_too_large` when `bounds` (in points, MuPDF's, which include /UserUnit) render
 * at `dpi` to more than `maxPixels`.
 */
export function checkPageArea(
  bounds: MuPdf.Rect,
  dpi: number,
  index: number,
  maxPixels: number,
): void {
  const [x0, y0, x1, y1] = bounds;
  const [width, height] = [Math.abs(x1 - x0), Math.abs(y1 - y0)];
  const pixels = Math.ceil((width * dpi) / 72) * Math.ceil((height * dpi) / 72);
  if (!(pixels <= maxPixels)) {
    throw new DocumentError(
      'page_too_large',
      `Page ${index + 1} of the PDF is ${inches(width)} x ${inches(height)} inches; at ${dpi} dpi ` +
        `it exceeds the limit of ${maxPixels / 1_000_000} megapixels (PARDA_MAX_IMAGE_MEGAPIXELS).`,
    );
  }
}

/**
 * Loads page `index`, runs `work` on it and releases it; a MuPDF failure on the way (a broken
 * content stream, exhausted memory or stack) becomes `corrupt_file` naming the page.
 */
export function onPdfPage<T>(
  pdf: MuPdf.PDFDocument,
  index: number,
  work: (page: MuPdf.PDFPage) => T,
): T {
  let page: MuPdf.PDFPage | undefined;
  try {
    page = pdf.loadPage(index);
    return work(page);
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    throw new DocumentError('corrupt_file', `Page ${index + 1} of the PDF could not be rendered.`);
  } finally {
    page?.destroy();
  }
}
