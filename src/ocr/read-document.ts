/**
 * The read step for a whole document: an image page is OCR'd; a PDF page gives its own text
 * layer, and is also rendered and OCR'd when it holds images (a scan, a photo of a card), no
 * text at all, or text that does not decode to what is printed (text-plausibility.ts), so that
 * nothing printed on it goes unread.
 */
import type { Document } from '../documents/document.js';
import type { PageContent } from '../documents/page-content.js';
import { readPdfPageOnce } from '../documents/render.js';
import type { RasterImage } from '../domain/raster.js';
import type { PageText, TextLine } from '../domain/text-layer.js';
import type { OcrEngine, ReadPurpose } from './types.js';

/** Above this share of the page covered by images, a PDF page is OCR'd as well. */
const IMAGE_COVERAGE_FOR_OCR = 0.02;

export interface ReadOptions {
  /** Resolution at which PDF pages are rendered for OCR. */
  readonly pdfDpi: number;
  /**
   * When set, a page holding a scan is rendered at the scan's own resolution, not below this
   * and not above `pdfDpi`: rendering a 200 dpi scan at 300 dpi adds no detail, only pixels to
   * read (detection and QR search cost grow with them).
   */
  readonly nativeDpiFloor?: number;
  /** What the reading is for (see ReadPurpose); default `text`. */
  readonly purpose?: ReadPurpose;
  /** false: a page that would be OCR'd is read from its text layer alone (see `ocrNeeded`). */
  readonly ocr?: boolean;
  /**
   * Called with the pixels about to be OCR'd, and what a PDF page is made of (null for an
   * image), once the worker has them: work on the same pixels can run on this thread meanwhile.
   */
  readonly whileReading?: (raster: RasterImage, content: PageContent | null) => void;
}

export interface ReadPage {
  readonly index: number;
  /** The page's text: a PDF text layer (points), an OCR reading (pixels of `raster`), or both. */
  readonly layers: readonly PageText[];
  /** The pixels that were OCR'd; null for a PDF page read from its text layer alone. */
  readonly raster: RasterImage | null;
  /** Factor from `raster` pixels to the page's own units (1 for images, 72/dpi for PDF pages). */
  readonly rasterToPage: number;
  /** What a PDF page is made of; null for an image. */
  readonly content: PageContent | null;
}

const ocrNeededFor = (content: PageContent) =>
  content.textChars === 0 ||
  content.imageCoverage >= IMAGE_COVERAGE_FOR_OCR ||
  content.implausibleLines > 0;

/** The lines the page's OCR reading found, in the pixels of its raster (none without one). */
export function ocrLinesOf(read: Pick<ReadPage, 'layers'>): readonly TextLine[] {
  return read.layers.filter((layer) => layer.source === 'ocr').flatMap((layer) => layer.lines);
}

/** Whether a page is one to OCR: an image, or a PDF page without trustworthy text or holding images. */
export function ocrNeeded(read: ReadPage): boolean {
  return read.content === null || ocrNeededFor(read.content);
}

/** The resolution at which a PDF page holding images is rendered for OCR. */
function ocrDpi(content: PageContent, options: ReadOptions): number {
  const floor = options.nativeDpiFloor;
  if (floor === undefined || content.imageDpi === null) return options.pdfDpi;
  return Math.round(Math.min(options.pdfDpi, Math.max(floor, content.imageDpi)));
}

export async function readPage(
  document: Document,
  index: number,
  ocr: OcrEngine,
  options: ReadOptions,
): Promise<ReadPage> {
  const page = document.pages[index];
  if (!page) throw new Error(`no page ${index}`);
  if (page.kind === 'raster') {
    if (options.ocr === false) {
      return { index, layers: [], raster: null, rasterToPage: 1, content: null };
    }
    const reading = ocr.read(page, index, options.purpose ?? 'text');
    options.whileReading?.(page, null);
    const layer = await reading;
    return { index, layers: [layer], raster: page, rasterToPage: 1, content: null };
  }
  const pdf = document.pdf;
  if (!pdf) throw new Error('a PDF page without its document');
  // The page is interpreted once for its text, its description and its pixels (render.ts).
  const { textLayer, content, raster, dpi } = readPdfPageOnce(pdf, index, (c) =>
    ocrNeededFor(c) && options.ocr !== false ? ocrDpi(c, options) : null,
  );
  if (raster === null || dpi === null) {
    return { index, layers: [textLayer], raster: null, rasterToPage: 72 / options.pdfDpi, content };
  }
  const reading = ocr.read(raster, index, options.purpose ?? 'text');
  options.whileReading?.(raster, content);
  const ocrLayer = await reading;
  return { index, layers: [textLayer, ocrLayer], raster, rasterToPage: 72 / dpi, content };
}
