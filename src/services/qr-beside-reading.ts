/**
 * A page's QR search run on this thread while the OCR worker reads the same pixels
 * (readPage's `whileReading`), and picked up once the reading is done.
 */
import { scanQrCodes, type QrSymbol, type ScanOptions } from '../cards/qr-scan.js';
import type { PageContent } from '../documents/page-content.js';
import type { RasterImage } from '../domain/raster.js';

export interface QrBesideReading {
  /** Pass as readPage's `whileReading`: starts the search if `wanted` says the page needs one. */
  readonly whileReading: (pixels: RasterImage, content: PageContent | null) => void;
  /** The search started beside the reading, or one of `raster` now if none was started. */
  readonly symbols: (raster: RasterImage) => Promise<QrSymbol[]>;
}

export function qrBesideReading(
  options: ScanOptions = {},
  wanted: (content: PageContent | null) => boolean = () => true,
): QrBesideReading {
  let scan: Promise<QrSymbol[]> | undefined;
  return {
    whileReading: (pixels, content) => {
      if (!wanted(content)) return;
      scan = scanQrCodes(pixels, options);
      // Awaited through `symbols`; if the reading fails first, its failure is the one reported.
      scan.catch(() => undefined);
    },
    symbols: (raster) => scan ?? scanQrCodes(raster, options),
  };
}
