/**
 * Masking Aadhaar numbers: the pipeline of DESIGN.md with masking as the apply step. Covers the
 * first eight digits of every number found (the last four stay readable) and every legacy XML
 * QR (it holds the full number); with `maskQr: 'all'` every QR code. Fails closed: a page that
 * cannot be read fails the whole document.
 */
import { scanQrCodes, type QrKind } from '../cards/qr-scan.js';
import { findAadhaarOnPage } from '../detection/aadhaar.js';
import { INDIAN_FORMATS, type Document } from '../documents/document.js';
import { mupdf } from '../documents/mupdf.js';
import { renderPdfPage } from '../documents/render.js';
import {
  encodeImage,
  imagesToPdf,
  IMAGE_PAGE_DPI,
  type OutputFormat,
  type WrittenFormat,
} from '../documents/writers.js';
import { AADHAAR_MASKED_DIGITS } from '../identifiers/aadhaar.js';
import { readPage, type ReadPage } from '../ocr/read-document.js';
import { readPdfTextLayer } from '../ocr/pdf-text.js';
import type { OcrEngine, Quad, RasterImage } from '../ocr/types.js';
import { boundsOf, expandQuad, scaleQuad, spanQuad } from '../redaction/geometry.js';
import { redactPdf, savePdfClean } from '../redaction/pdf.js';
import { inkGap } from '../redaction/ink-gap.js';
import { coverQuads } from '../redaction/raster.js';
import { withDocument, type ServiceContext, type UploadedDocument } from './context.js';
import { OutputFormatError } from './errors.js';

export type MaskQr = 'xml' | 'all';

export interface MaskOptions {
  readonly outputFormat: OutputFormat;
  readonly maskQr: MaskQr;
  /** Resolution for rendering PDF pages to OCR them. */
  readonly pdfDpi: number;
}

export interface MaskResult {
  readonly bytes: Buffer;
  readonly format: WrittenFormat;
  /** Regions covered: one per number, one per QR code. Zero means nothing was found. */
  readonly maskedCount: number;
  readonly pages: number;
  /** What was covered, per page, in the page's own units (pixels, or PDF points). */
  readonly regions: readonly { readonly page: number; readonly quads: readonly Quad[] }[];
}

/** A region to cover, in the page's own units. */
interface Region {
  readonly quads: Quad[];
}

/**
 * A symbol found but not decodable is covered too: it may be the XML QR, and what cannot be
 * decoded from this copy cannot be verified from it either.
 */
const QR_TO_COVER: Record<MaskQr, ReadonlySet<QrKind>> = {
  xml: new Set(['aadhaar_xml', 'unreadable']),
  all: new Set(['aadhaar_xml', 'aadhaar_secure', 'aadhaar_signed_xml', 'other', 'unreadable']),
};

function overlaps(a: Quad, b: Quad): boolean {
  const p = boundsOf(a);
  const q = boundsOf(b);
  const w = Math.min(p.x1, q.x1) - Math.max(p.x0, q.x0);
  const h = Math.min(p.y1, q.y1) - Math.max(p.y0, q.y0);
  if (w <= 0 || h <= 0) return false;
  const smaller = Math.min((p.x1 - p.x0) * (p.y1 - p.y0), (q.x1 - q.x0) * (q.y1 - q.y0));
  return w * h > 0.3 * smaller;
}

/** The same number read twice (text layer and OCR) is one region, covered by both quads. */
function addRegion(regions: Region[], quad: Quad): void {
  const existing = regions.find((r) => r.quads.some((q) => overlaps(q, quad)));
  if (existing) existing.quads.push(quad);
  else regions.push({ quads: [quad] });
}

interface PageRegions {
  readonly regions: Region[];
  /** First eight digits of numbers found in a PDF text layer, checked gone after saving. */
  readonly textPrefixes: string[];
}

async function regionsOf(read: ReadPage, maskQr: MaskQr): Promise<PageRegions> {
  const regions: Region[] = [];
  const textPrefixes: string[] = [];
  for (const layer of read.layers) {
    const toPage = layer.source === 'ocr' ? read.rasterToPage : 1;
    for (const finding of findAadhaarOnPage(layer).findings) {
      const last = AADHAAR_MASKED_DIGITS - 1;
      const [eighth, ninth] = [finding.charQuads[last], finding.charQuads[last + 1]];
      // OCR boxes are estimates: cut where the pixels show the gap before the ninth digit.
      const gap =
        layer.source === 'ocr' && read.raster && eighth && ninth
          ? inkGap(read.raster, eighth, ninth)
          : null;
      const cover = spanQuad(finding.charQuads, 0, last, 0.15, gap);
      addRegion(regions, scaleQuad(cover, toPage));
      if (layer.source === 'pdf') textPrefixes.push(finding.value.slice(0, AADHAAR_MASKED_DIGITS));
    }
  }
  if (read.raster) {
    for (const symbol of await scanQrCodes(read.raster)) {
      if (!QR_TO_COVER[maskQr].has(symbol.kind)) continue;
      // Into the quiet zone too: a QR cut at its edge can sometimes still be decoded, and the
      // outline ZXing gives for a symbol it could not decode (a photo) may fall short.
      const margin = 0.1 * (boundsOf(symbol.quad).x1 - boundsOf(symbol.quad).x0);
      addRegion(regions, scaleQuad(expandQuad(symbol.quad, margin), read.rasterToPage));
    }
  }
  return { regions, textPrefixes };
}

function checkOutputFormat(document: Document, outputFormat: OutputFormat): void {
  if (outputFormat === 'jpg' && document.format === 'pdf' && document.pages.length > 1) {
    throw new OutputFormatError(
      'output_format=jpg needs a single-page document; use pdf or same for a multi-page PDF.',
    );
  }
}

/**
 * Fail closed: reopens the saved PDF and proves that no masked digit run is left in its text.
 * `removed` holds, per page, the first eight digits of each number taken from the text layer.
 */
function assertPdfClean(output: Buffer, removed: ReadonlyMap<number, readonly string[]>): void {
  if (removed.size === 0) return;
  const opened = mupdf.Document.openDocument(output, 'application/pdf').asPDF();
  if (!opened) throw new Error('the redacted PDF does not reopen');
  try {
    for (const [page, prefixes] of removed) {
      const digits = readPdfTextLayer(opened, page)
        .lines.map((line) => line.text.replace(/\D/g, ''))
        .join('|');
      if (prefixes.some((prefix) => digits.includes(prefix))) {
        throw new Error('masked digits are still present in the PDF text');
      }
    }
  } finally {
    opened.destroy();
  }
}

async function writeImages(
  pages: RasterImage[],
  document: Document,
  outputFormat: OutputFormat,
): Promise<{ bytes: Buffer; format: WrittenFormat }> {
  const [page] = pages;
  // Several pages (a TIFF, on the global endpoints) can only be written as one PDF.
  if (outputFormat === 'pdf' || !page || pages.length !== 1) {
    return { bytes: await imagesToPdf(pages), format: 'pdf' };
  }
  const format = outputFormat === 'jpg' || document.format === 'jpeg' ? 'jpeg' : 'png';
  return { bytes: await encodeImage(page, format), format };
}

export async function maskAadhaar(
  document: Document,
  options: MaskOptions,
  ocr: OcrEngine,
): Promise<MaskResult> {
  checkOutputFormat(document, options.outputFormat);
  const perPage: PageRegions[] = [];
  for (let index = 0; index < document.pages.length; index += 1) {
    const read = await readPage(document, index, ocr, { pdfDpi: options.pdfDpi });
    perPage.push(await regionsOf(read, options.maskQr));
  }
  const maskedCount = perPage.reduce((sum, page) => sum + page.regions.length, 0);
  const pages = document.pages.length;
  const regions = perPage.map((page, index) => ({
    page: index,
    quads: page.regions.flatMap((r) => r.quads),
  }));
  if (maskedCount === 0) {
    const format = document.format as WrittenFormat;
    return { bytes: document.bytes, format, maskedCount, pages, regions };
  }

  if (document.pdf) {
    redactPdf(document.pdf, regions);
    const cleaned = savePdfClean(document.pdf);
    const removed = new Map<number, string[]>();
    perPage.forEach(({ textPrefixes }, page) => {
      if (textPrefixes.length > 0) removed.set(page, textPrefixes);
    });
    assertPdfClean(cleaned, removed);
    if (options.outputFormat !== 'jpg') {
      return { bytes: cleaned, format: 'pdf', maskedCount, pages, regions };
    }
    const image = renderPdfPage(document.pdf, 0, IMAGE_PAGE_DPI);
    const jpeg = await encodeImage(image, 'jpeg');
    return { bytes: jpeg, format: 'jpeg', maskedCount, pages, regions };
  }

  const covered = document.pages.map((page, index) => {
    if (page.kind !== 'raster') throw new Error('an image document with a PDF page');
    return coverQuads(page, regions[index]?.quads ?? []);
  });
  const written = await writeImages(covered, document, options.outputFormat);
  return { ...written, maskedCount, pages, regions };
}

/** The service entry point: file bytes in, masked file out (used by the API, bulk and CLI). */
export async function maskAadhaarFile(
  context: ServiceContext,
  upload: UploadedDocument,
  options: { outputFormat: OutputFormat; maskQr: MaskQr },
): Promise<MaskResult> {
  const ocr = await context.ocr();
  return withDocument(context, upload, INDIAN_FORMATS, (document) =>
    maskAadhaar(document, { ...options, pdfDpi: context.pdfOcrDpi }, ocr),
  );
}
