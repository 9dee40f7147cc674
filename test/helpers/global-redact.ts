/**
 * The global redaction service run on a file as POST /global/redact runs it (intake with the
 * global formats, every global rule, the settings' OCR limits), and its output read back as
 * pixels, for the tests that measure what it covered.
 */
import sharp from 'sharp';
import type { Settings } from '../../src/config/settings.js';
import { GLOBAL_FORMATS } from '../../src/documents/document.js';
import { intake } from '../../src/documents/intake.js';
import { mupdf } from '../../src/documents/mupdf.js';
import { renderPdfPage } from '../../src/documents/render.js';
import { GLOBAL_RULES } from '../../src/identifiers/catalogue.js';
import type { RasterImage } from '../../src/domain/raster.js';
import { serviceContext } from '../../src/services/context.js';
import type { Mode } from '../../src/redaction/operators/types.js';
import { redactGlobalDocument, type GlobalRedactResult } from '../../src/services/redact-global.js';

export type GlobalRedact = (
  bytes: Buffer,
  filename: string,
  mode: Mode,
  stripMetadata?: boolean,
) => Promise<GlobalRedactResult>;

/** The service with `settings`, redacting a file in `mode` (mask mode keeps 4 characters). */
export function globalRedactor(settings: Settings): GlobalRedact {
  const context = serviceContext(settings);
  return async (bytes, filename, mode, stripMetadata = true) => {
    const document = await intake(bytes, filename, {
      accepted: GLOBAL_FORMATS,
      maxPixels: settings.maxImagePixels,
      maxPages: settings.maxPages,
    });
    try {
      return await redactGlobalDocument(
        document,
        { rules: GLOBAL_RULES, countries: [], mode, maskKeep: 4, stripMetadata },
        await context.ocr(),
        { pdfDpi: settings.pdfOcrDpi, maxOcrPages: settings.maxOcrPages },
      );
    } finally {
      document.dispose();
    }
  };
}

/** Every page of an image file as pixels (a BMP through the service's own intake). */
async function decode(bytes: Buffer): Promise<RasterImage[]> {
  if (bytes.subarray(0, 2).toString('latin1') === 'BM') {
    // sharp reads no BMP: the service's own intake decodes it (the input of a BMP run only).
    const document = await intake(bytes, 'input.bmp', {
      accepted: GLOBAL_FORMATS,
      maxPixels: 1e9,
      maxPages: 10,
    });
    const pages: RasterImage[] = [];
    for (const page of document.pages) if (page.kind === 'raster') pages.push(page);
    document.dispose();
    return pages;
  }
  const meta = await sharp(bytes).metadata();
  const pages = meta.pages ?? 1;
  const out: RasterImage[] = [];
  for (let page = 0; page < pages; page += 1) {
    const { data, info } = await sharp(bytes, { page })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    out.push({ width: info.width, height: info.height, channels: 3, pixels: data });
  }
  return out;
}

/**
 * The pages of a file as pixels (a PDF rendered at `dpi`), and the factor from its page units
 * (points or pixels) to those pixels.
 */
export async function pagesOf(
  bytes: Buffer,
  pdf: boolean,
  dpi: number,
): Promise<{ images: RasterImage[]; scale: number }> {
  if (!pdf) return { images: await decode(bytes), scale: 1 };
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF();
  if (!doc) throw new Error('not a PDF');
  const images = Array.from({ length: doc.countPages() }, (_, i) => renderPdfPage(doc, i, dpi));
  doc.destroy();
  return { images, scale: dpi / 72 };
}
