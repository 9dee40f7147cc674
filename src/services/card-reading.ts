/**
 * The read step for card extraction: every page OCR'd (or its PDF text when that is all it
 * has), QR codes found, and the measures warnings rest on. One text layer per page: for a PDF
 * page that was rendered and OCR'd, the OCR reading (it sees everything printed, text included).
 */
import type { QrSymbol, ScanOptions } from '../cards/qr-scan.js';
import { textContrast } from '../cards/image-quality.js';
import type { Document } from '../documents/document.js';
import { ocrLinesOf, readPage } from '../ocr/read-document.js';
import type { RasterImage } from '../domain/raster.js';
import type { PageText } from '../domain/text-layer.js';
import type { OcrEngine } from '../ocr/types.js';
import { qrBesideReading } from './qr-beside-reading.js';

export interface CardReading {
  readonly pages: readonly PageText[];
  readonly qrs: readonly QrSymbol[];
  /** Each page's pixels, where it was read from pixels (for a second look at one line). */
  readonly rasters: readonly (RasterImage | null)[];
  /** Lowest text contrast over the page images (image-quality.ts); null when none was measured. */
  readonly contrast: number | null;
}

export async function readCardDocument(
  document: Document,
  ocr: OcrEngine,
  pdfDpi: number,
  options: ScanOptions = {},
): Promise<CardReading> {
  const pages: PageText[] = [];
  const qrs: QrSymbol[] = [];
  const rasters: (RasterImage | null)[] = [];
  let contrast: number | null = null;
  for (let index = 0; index < document.pages.length; index += 1) {
    const qr = qrBesideReading(options);
    const read = await readPage(document, index, ocr, { pdfDpi, whileReading: qr.whileReading });
    const layer = read.layers.find((l) => l.source === 'ocr') ?? read.layers[0];
    if (layer) {
      pages.push(layer);
      rasters.push(layer.source === 'ocr' ? read.raster : null);
    }
    if (read.raster) {
      qrs.push(...(await qr.symbols(read.raster)));
      const ocrLines = ocrLinesOf(read);
      // Confident lines only: a speck read as a letter says nothing about the print.
      const spread = textContrast(
        read.raster,
        ocrLines.filter((l) => l.confidence >= 0.8),
      );
      if (spread !== null) contrast = contrast === null ? spread : Math.min(contrast, spread);
    }
  }
  return { pages, qrs, rasters, contrast };
}
