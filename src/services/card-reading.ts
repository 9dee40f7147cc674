/**
 * The read step for card extraction: every page OCR'd (or its PDF text when that is all it
 * has), QR codes found, and the measures warnings rest on. One text layer per page: for a PDF
 * page that was rendered and OCR'd, the OCR reading (it sees everything printed, text included).
 */
import { scanQrCodes, type QrSymbol, type ScanOptions } from '../cards/qr-scan.js';
import { textContrast } from '../cards/image-quality.js';
import type { Document } from '../documents/document.js';
import { readPage } from '../ocr/read-document.js';
import type { OcrEngine, PageText } from '../ocr/types.js';

export interface CardReading {
  readonly pages: readonly PageText[];
  readonly qrs: readonly QrSymbol[];
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
  let contrast: number | null = null;
  for (let index = 0; index < document.pages.length; index += 1) {
    // QR codes are looked for on this thread while the OCR worker reads the same pixels.
    let scan: Promise<QrSymbol[]> | undefined;
    const read = await readPage(document, index, ocr, {
      pdfDpi,
      whileReading: (pixels) => {
        scan = scanQrCodes(pixels, options);
        // Awaited below; if the reading fails first, its failure is the one reported.
        scan.catch(() => undefined);
      },
    });
    const layer = read.layers.find((l) => l.source === 'ocr') ?? read.layers[0];
    if (layer) pages.push(layer);
    if (read.raster) {
      qrs.push(...(await (scan ?? scanQrCodes(read.raster, options))));
      const ocrLines = read.layers.find((l) => l.source === 'ocr')?.lines ?? [];
      // Confident lines only: a speck read as a letter says nothing about the print.
      const spread = textContrast(
        read.raster,
        ocrLines.filter((l) => l.confidence >= 0.8),
      );
      if (spread !== null) contrast = contrast === null ? spread : Math.min(contrast, spread);
    }
  }
  return { pages, qrs, contrast };
}
