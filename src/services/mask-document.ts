/**
 * Masking: the one pipeline (README, Development) with masking as the apply step, for any card
 * number whose target says how to find it, which of its characters to cover and which QR codes hold it
 * (mask-aadhaar.ts, mask-pan.ts). Fails closed: a page that cannot be read fails the whole
 * document, and a PDF is reopened after saving to prove the covered characters are gone.
 */
import type { QrSymbol } from '../cards/qr-scan.js';
import { UNVERIFIED_RULE } from '../detection/aadhaar-context.js';
import type { Finding } from '../detection/types.js';
import type { Document } from '../documents/document.js';
import { savePdfOutput } from '../documents/pdf-output.js';
import { renderPdfPage } from '../documents/render.js';
import { rewriteDocument } from '../documents/rewrite.js';
import { encodeImage, imagesToPdf, IMAGE_PAGE_DPI } from '../documents/writers.js';
import { timed } from '../domain/stage-times.js';
import { type OutputFormat, type WrittenFormat } from '../domain/formats.js';
import { ocrLinesOf, readPage, type ReadPage } from '../ocr/read-document.js';
import type { Quad } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';
import type { PageText, TextLine } from '../domain/text-layer.js';
import type { OcrEngine, ReadPurpose } from '../ocr/types.js';
import { scaleQuad, spanQuad } from '../redaction/geometry.js';
import { partialCover, type CoveredSpan } from '../redaction/operators/partial-cover.js';
import { charactersRead, hiddenUnder, qrCover, wordsBeside } from '../redaction/qr-cover.js';
import { addRegion, type Region } from '../redaction/regions.js';
import { assertPdfClean, findLeftovers } from '../pipeline/clean-output.js';
import { rasterisePdfPage } from '../redaction/pdf-page-raster.js';
import { coverImagePage, rereadPage, type Cover } from '../pipeline/residual-check.js';
import type { ServiceContext } from './context.js';
import { InvalidRequestError } from './errors.js';
import { qrBesideReading } from './qr-beside-reading.js';

export type MaskQr = 'xml' | 'all';

export interface MaskOptions {
  readonly outputFormat: OutputFormat;
  readonly maskQr: MaskQr;
  /** Resolution for rendering PDF pages to OCR them. */
  readonly pdfDpi: number;
  /** Read the output again before it leaves; off: `residualCheck: 'skipped'`. */
  readonly residualCheck: boolean;
}

/** What a caller of the masking endpoints chooses; the rest comes from the service's settings. */
export type MaskFileOptions = Pick<MaskOptions, 'outputFormat' | 'maskQr'>;

export function maskingOptions(
  options: MaskFileOptions,
  context: Pick<ServiceContext, 'pdfOcrDpi' | 'residualCheck'>,
): MaskOptions {
  return { ...options, pdfDpi: context.pdfOcrDpi, residualCheck: context.residualCheck };
}

export interface MaskResult {
  readonly bytes: Buffer;
  readonly format: WrittenFormat;
  /** Regions covered: one per number, one per QR code. Zero means nothing was found. */
  readonly maskedCount: number;
  /**
   * Of them, numbers covered although their check digit failed (a misread or worn print where
   * only that number can stand: detection/aadhaar-context.ts).
   */
  readonly unverifiedCount: number;
  readonly pages: number;
  /**
   * `passed`: every covered number was looked for again in the output and not found (re-read
   * of the pixels, or of a PDF's text); `none`: nothing textual was covered (no number, or only
   * QR codes); `skipped`: the check is turned off (`PARDA_RESIDUAL_CHECK=off`). A number still
   * readable fails the document (`residual_check_failed`).
   */
  readonly residualCheck: 'passed' | 'none' | 'skipped';
  /** What was covered, per page, in the page's own units (pixels, or PDF points). */
  readonly regions: readonly { readonly page: number; readonly quads: readonly Quad[] }[];
  /**
   * PDF pages (1-based) replaced by a covered image of themselves because a number's text could
   * not be taken out of their content stream (X-Rasterised-Pages).
   */
  readonly rasterisedPages: readonly number[];
}

/** A region to cover, in the page's own units. */
/** What one masking endpoint looks for and how much of it it covers. */
export interface MaskTarget {
  readonly find: (page: PageText) => readonly Finding[];
  /** The characters of a finding to cover (redaction/operators/partial-cover.ts). */
  readonly covered: CoveredSpan;
  /** Whether a QR code found on the page is covered under the `mask_qr` choice. */
  readonly coversQr: (symbol: QrSymbol, maskQr: MaskQr) => boolean;
  /** `numbers` when the values are digits only (a faster reading serves them as well). */
  readonly purpose: ReadPurpose;
  /** The page text reduced to the characters a value is made of, to look for covered runs. */
  readonly normalise: (text: string) => string;
  /**
   * Words that may be an unread value (one character dropped by OCR), given as character
   * quads: covered whole, since which of their characters could stay visible is unknown.
   */
  readonly suspects?: (page: PageText) => readonly (readonly Quad[])[];
  /** A value the re-read must not find over a cover at all (ReadFor.appears). */
  readonly appears?: (line: string) => boolean;
  /**
   * A second look at an OCR'd page where `find` found nothing: values read again from
   * `raster` (the pixels the page was read from), their character boxes in those pixels.
   */
  readonly secondLook?: (
    page: PageText,
    raster: RasterImage,
    ocr: OcrEngine,
  ) => Promise<readonly Finding[]>;
  /**
   * A look at an OCR'd page where `find` found something: the findings to cover instead, for
   * copies of them damaged by a mark (read again, or added).
   */
  readonly copiesLook?: (
    page: PageText,
    raster: RasterImage,
    ocr: OcrEngine,
    found: readonly Finding[],
  ) => Promise<readonly Finding[]>;
}

interface PageRegions {
  readonly regions: Region[];
  /** Raster pixels to page units of the page's OCR reading; null when it had none. */
  readonly rasterToPage: number | null;
  /** Covered characters of values found in a PDF text layer, checked gone after saving. */
  readonly textPrefixes: string[];
  /** The lines the page's OCR reading found, in its raster's pixels (for the re-read). */
  readonly ocrLines: readonly TextLine[];
}

/** What `target` finds on a layer, with its second look where the first found nothing, or its look at damaged copies where it found something. */
async function findingsOf(
  layer: PageText,
  raster: RasterImage | undefined,
  target: MaskTarget,
  ocr: OcrEngine,
): Promise<readonly Finding[]> {
  const found = await timed('find', () => target.find(layer));
  if (!raster) return found;
  const { copiesLook, secondLook } = target;
  if (found.length > 0) {
    return copiesLook ? timed('copies look', () => copiesLook(layer, raster, ocr, found)) : found;
  }
  return secondLook ? timed('second look', () => secondLook(layer, raster, ocr)) : found;
}

async function regionsOf(
  read: ReadPage,
  target: MaskTarget,
  maskQr: MaskQr,
  ocr: OcrEngine,
  qrSymbols: (raster: RasterImage) => Promise<QrSymbol[]>,
): Promise<PageRegions> {
  const regions: Region[] = [];
  const textPrefixes: string[] = [];
  /** Characters of the findings that stay readable, in page units. */
  const visible: Quad[] = [];
  for (const layer of read.layers) {
    const toPage = layer.source === 'ocr' ? read.rasterToPage : 1;
    const raster = (layer.source === 'ocr' && read.raster) || undefined;
    const findings = await findingsOf(layer, raster, target, ocr);
    for (const finding of findings) {
      const part = partialCover.region(finding.value, finding.charQuads, target.covered, raster);
      visible.push(...part.visible.map((q) => scaleQuad(q, toPage)));
      addRegion(regions, {
        cores: [scaleQuad(part.core, toPage)],
        quads: [scaleQuad(part.quad, toPage)],
        unverified: finding.rule === UNVERIFIED_RULE,
        hidden: part.hidden,
      });
      if (layer.source === 'pdf') textPrefixes.push(part.hidden);
    }
    // Words that may be an unread value, unless the second look read it.
    const suspects = findings.length > 0 ? [] : (target.suspects?.(layer) ?? []);
    for (const quads of suspects) {
      const cover = scaleQuad(spanQuad(quads, 0, quads.length - 1), toPage);
      addRegion(regions, { cores: [cover], quads: [cover] });
    }
  }
  if (read.raster) {
    const numberCovers = regions.flatMap((r) => r.quads);
    const raster = read.raster;
    for (const symbol of await timed('qr', () => qrSymbols(raster))) {
      if (!target.coversQr(symbol, maskQr)) continue;
      const symbolOnPage = scaleQuad(symbol.quad, read.rasterToPage);
      if (symbol.kind === 'unreadable' && hiddenUnder(symbolOnPage, numberCovers)) continue;
      // The characters OCR read on the page, in page units.
      const ocrLayers = read.layers.filter((layer) => layer.source === 'ocr');
      const chars = charactersRead(ocrLayers, () => read.rasterToPage);
      const words = wordsBeside(chars, symbolOnPage);
      const cover = qrCover(symbol.quad, read.rasterToPage, visible, words);
      addRegion(regions, { cores: [symbolOnPage], quads: [cover] });
    }
  }
  return {
    regions,
    textPrefixes,
    rasterToPage: read.raster ? read.rasterToPage : null,
    ocrLines: ocrLinesOf(read),
  };
}

function checkOutputFormat(document: Document, outputFormat: OutputFormat): void {
  if (outputFormat === 'jpg' && document.format === 'pdf' && document.pages.length > 1) {
    throw new InvalidRequestError(
      'output_format=jpg needs a single-page document; use pdf or same for a multi-page PDF.',
    );
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

export type { Cover } from '../pipeline/residual-check.js';

export async function maskDocument(
  document: Document,
  target: MaskTarget,
  options: MaskOptions,
  ocr: OcrEngine,
  cover: Cover = partialCover.image,
): Promise<MaskResult> {
  checkOutputFormat(document, options.outputFormat);
  const perPage: PageRegions[] = [];
  for (let index = 0; index < document.pages.length; index += 1) {
    // The QR search runs on this thread while the OCR worker reads the same pixels.
    const qr = qrBesideReading();
    const read = await timed('read', () =>
      readPage(document, index, ocr, {
        pdfDpi: options.pdfDpi,
        purpose: target.purpose,
        whileReading: qr.whileReading,
      }),
    );
    perPage.push(await regionsOf(read, target, options.maskQr, ocr, qr.symbols));
  }
  const maskedCount = perPage.reduce((sum, page) => sum + page.regions.length, 0);
  const unverifiedCount = perPage.reduce(
    (sum, page) => sum + page.regions.filter((r) => r.unverified).length,
    0,
  );
  const pages = document.pages.length;
  const regionsNow = () =>
    perPage.map((page, index) => ({ page: index, quads: page.regions.flatMap((r) => r.quads) }));
  /** The counts every result carries, taken when the covers are final. */
  const outcome = (
    residualCheck: MaskResult['residualCheck'],
    rasterisedPages: readonly number[] = [],
  ) => ({
    maskedCount,
    unverifiedCount,
    pages,
    regions: regionsNow(),
    residualCheck,
    rasterisedPages,
  });
  if (maskedCount === 0) {
    // The same document, written whole (an image without its metadata), never the input bytes.
    const written = await rewriteDocument(document, { keepMetadata: false });
    return { ...written, ...outcome('none') };
  }
  let checked = false;
  const reread = options.residualCheck;

  const pdf = document.pdf;
  if (pdf) {
    for (const { page, quads } of regionsNow()) partialCover.pdf(pdf, page, quads);
    // OCR'd pages are read again from the redacted page's pixels; text-layer values are
    // checked gone from the saved file's text below.
    for (const [index, page] of perPage.entries()) {
      if (page.rasterToPage === null) continue;
      const rasterToPage = page.rasterToPage;
      const pageCheck = {
        regions: page.regions,
        rasterToPage,
        page: index,
        render: () => renderPdfPage(pdf, index, 72 / rasterToPage),
        lines: page.ocrLines,
        apply: () => {
          partialCover.pdf(
            pdf,
            index,
            page.regions.flatMap((r) => r.quads),
          );
        },
      };
      checked =
        (reread && (await timed('re-read', () => rereadPage(pageCheck, ocr, target)))) || checked;
    }
    const looked = checked || perPage.some((p) => p.textPrefixes.length > 0);
    const residualCheck = !reread ? 'skipped' : looked ? 'passed' : 'none';
    let cleaned = await timed('save', () => savePdfOutput(pdf));
    // Fail closed: the covered characters of each value read from a text layer must be gone
    // from its page's text. Lines are kept apart, so that digits ending one line and starting
    // the next never pass for a number that was covered.
    const removed = perPage.flatMap(({ textPrefixes }, page) =>
      textPrefixes.map((text) => ({ page, text })),
    );
    const checks = { text: { removed, how: { normalise: target.normalise, joiner: '|' } } };
    const left = await timed('clean-output check', () => findLeftovers(cleaned, checks));
    // A page whose number's text would not leave the content stream becomes an image of itself.
    for (const page of left.pages) {
      const quads = (perPage[page]?.regions ?? [])
        .flatMap((r) => r.quads)
        .map((q) => scaleQuad(q, options.pdfDpi / 72));
      await rasterisePdfPage(pdf, page, options.pdfDpi, (pixels) => cover(pixels, quads));
    }
    if (left.pages.length > 0) {
      cleaned = savePdfOutput(pdf);
      assertPdfClean(cleaned, checks);
    }
    const counts = outcome(
      residualCheck,
      left.pages.map((p) => p + 1),
    );
    if (options.outputFormat !== 'jpg') return { bytes: cleaned, format: 'pdf', ...counts };
    const image = renderPdfPage(pdf, 0, IMAGE_PAGE_DPI);
    return { bytes: await encodeImage(image, 'jpeg'), format: 'jpeg', ...counts };
  }

  const covered: RasterImage[] = [];
  for (const [index, page] of document.pages.entries()) {
    if (page.kind !== 'raster') throw new Error('an image document with a PDF page');
    const { regions, ocrLines } = perPage[index] as PageRegions;
    const done = await timed('cover and re-read', () =>
      coverImagePage(
        page,
        regions,
        index,
        cover,
        reread ? { ocr, how: target, lines: ocrLines } : null,
      ),
    );
    checked ||= done.checked;
    covered.push(done.pixels);
  }
  const written = await timed('encode', () => writeImages(covered, document, options.outputFormat));
  return { ...written, ...outcome(!reread ? 'skipped' : checked ? 'passed' : 'none') };
}
