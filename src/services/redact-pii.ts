/**
 * Redacting Indian identifiers (README, POST /redact-pii): the one pipeline (README,
 * Development) with whole-value covers as the apply step. Every page becomes pixels: an image as it is, a PDF page
 * rendered (README: PDFs are rasterised before redaction, so that no text remains under a
 * cover); its text is read from the PDF's own text layer where it has one and by OCR where it
 * holds images; each identifier found is covered whole, on both lines when it is broken over
 * two. The legacy Aadhaar XML QR (it holds the full number) and QR codes that cannot be decoded
 * are covered when `aadhaar` is asked for. A page that cannot be read fails the document.
 */
import { UNVERIFIED_RULE } from '../detection/aadhaar-context.js';
import { findIndianOnPage } from '../detection/indian.js';
import type { Finding } from '../detection/types.js';
import { INDIAN_FORMATS, type Document } from '../documents/document.js';
import type { PageContent } from '../documents/page-content.js';
import { renderPdfPage } from '../documents/render.js';
import { rewriteDocument } from '../documents/rewrite.js';
import {
  encodedPagesToPdf,
  encodeImage,
  encodePage,
  IMAGE_PAGE_DPI,
  type EncodedPage,
} from '../documents/writers.js';
import { type WrittenFormat } from '../domain/formats.js';
import { INDIAN_TYPES } from '../identifiers/in/redact-pii-types.js';
import { INDIAN_TYPE_NAMES, type IndianType } from '../identifiers/in/redact-pii-rules.js';
import { ocrLinesOf, readPage } from '../ocr/read-document.js';
import type { Quad } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';
import type { TextLine } from '../domain/text-layer.js';
import type { OcrEngine } from '../ocr/types.js';
import { lineRuns, scaleQuad, spanQuad } from '../redaction/geometry.js';
import { neighbourCuts } from '../redaction/ink-gap.js';
import { box } from '../redaction/operators/box.js';
import { charactersRead, qrCover, wordsBeside } from '../redaction/qr-cover.js';
import { addRegion, type Region } from '../redaction/regions.js';
import { coverImagePage, type ReadFor } from '../pipeline/residual-check.js';
import { fileService } from './context.js';
import { UnknownTypeError } from './errors.js';
import { qrBesideReading } from './qr-beside-reading.js';

const DEFAULT_TYPES = INDIAN_TYPES.filter((t) => t.enabledByDefault).map(
  (t) => t.type as IndianType,
);

const isIndianType = (name: string): name is IndianType =>
  (INDIAN_TYPE_NAMES as readonly string[]).includes(name);

/**
 * A `types` choice: names separated by commas, case and spaces aside; empty or absent means the
 * types on by default. An unknown name is refused (never silently dropped: the caller would
 * believe it redacted).
 */
export function resolveTypes(raw: string | undefined): IndianType[] {
  const names = (raw ?? '')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  if (names.length === 0) return [...DEFAULT_TYPES];
  const unknown = names.filter((n) => !isIndianType(n));
  if (unknown.length > 0) {
    const shown = unknown.map((n) => n.replace(/[^a-z0-9_]/g, '?').slice(0, 32)).join(', ');
    throw new UnknownTypeError(
      `Unknown type(s): ${shown}. Valid types: ${INDIAN_TYPE_NAMES.join(', ')}.`,
    );
  }
  return [...new Set(names.filter(isIndianType))];
}

/**
 * Resolution of PDF pages that are rasterised for their text layer alone (no OCR needed), and
 * the least at which a scanned page is rendered (a scan of a higher resolution keeps its own).
 */
export const REDACTION_RASTER_DPI = 200;

export interface RedactOptions {
  readonly types: readonly IndianType[];
  /** Highest resolution at which PDF pages holding images are rendered to OCR them. */
  readonly pdfDpi: number;
  /** Read every covered page again before it leaves (redaction/residual-check.ts). */
  readonly residualCheck: boolean;
}

export interface RedactResult {
  readonly bytes: Buffer;
  readonly format: WrittenFormat;
  /** Merged regions covered (X-Redacted-Count); zero means nothing was found. */
  readonly redactedCount: number;
  /**
   * Of the regions, Aadhaar numbers covered although their check digit failed, on an Aadhaar
   * card or letter or after an Aadhaar label (X-Unverified-Count; detection/aadhaar-context.ts).
   */
  readonly unverifiedCount: number;
  /**
   * `passed`: every covered value was looked for again in the output's pixels and not found;
   * `none`: nothing textual was covered; `skipped`: the check is off (X-Residual-Check).
   */
  readonly residualCheck: 'passed' | 'none' | 'skipped';
  /** Detections per type (X-Redacted-Types): a value read twice counts twice. */
  readonly typeCounts: Readonly<Partial<Record<IndianType, number>>>;
  readonly pages: number;
  /** What was covered, per page, in the pixels of the page as written (at `dpi` for PDFs). */
  readonly regions: readonly {
    readonly page: number;
    readonly dpi: number;
    readonly quads: readonly Quad[];
  }[];
}

/**
 * A PDF's glyph boxes are exact and already hold the side bearings and the font's whole height:
 * along the line, a hair of margin, well under half a space, so that the cover stays off the
 * label before the value (measured: the OCR margin, 0.4 of the text height to the left,
 * blackened the "l" of "Email" and the "C" of "IFSC" on a tenth of the words beside values);
 * across, a hair too (a fifth of the box reached the descenders of the line above).
 */
const PDF_TEXT_PAD = { across: 0.03, along: 0.05 } as const;
/** OCR's character boxes are estimates: a fifth of the text height of margin all round. */
const OCR_PAD = 0.2;

interface PageOutcome {
  /** The page's pixels; null once covered and encoded (a long PDF holds one page at a time). */
  raster: RasterImage | null;
  /** Whether `raster` was rendered for this output alone, so that it may be covered in place. */
  readonly rendered: boolean;
  /** Resolution of `raster` (an image page: the writers' default, it has no other). */
  readonly dpi: number;
  readonly regions: Region[];
  readonly detections: readonly Finding[];
  /** The lines the page's OCR reading found, in `raster`'s pixels (for the re-read). */
  readonly ocrLines: readonly TextLine[];
}

/**
 * Whether the page may hold a QR code: an image does; a PDF page of text alone does not, unless
 * it draws vector graphics (a QR code can be drawn as squares).
 */
const mayHoldQr = (content: PageContent | null): boolean =>
  content === null || content.imageCoverage > 0 || content.vectors > 0;

async function redactPage(
  document: Document,
  index: number,
  options: RedactOptions,
  ocr: OcrEngine,
): Promise<PageOutcome> {
  const searchQr = (content: PageContent | null): boolean =>
    options.types.includes('aadhaar') && mayHoldQr(content);
  const qr = qrBesideReading({}, searchQr);
  const read = await readPage(document, index, ocr, {
    pdfDpi: options.pdfDpi,
    nativeDpiFloor: REDACTION_RASTER_DPI,
    purpose: 'document',
    whileReading: qr.whileReading,
  });
  const page = document.pages[index];
  let raster: RasterImage;
  let dpi: number;
  if (page?.kind === 'raster') {
    [raster, dpi] = [page, IMAGE_PAGE_DPI];
  } else if (read.raster) {
    [raster, dpi] = [read.raster, 72 / read.rasterToPage];
  } else {
    if (!document.pdf) throw new Error('a PDF page without its document');
    [raster, dpi] = [
      renderPdfPage(document.pdf, index, REDACTION_RASTER_DPI),
      REDACTION_RASTER_DPI,
    ];
  }
  const regions: Region[] = [];
  const detections: Finding[] = [];
  for (const layer of read.layers) {
    // PDF text is in points; OCR already in the pixels of the rendered page.
    const toRaster = layer.source === 'pdf' ? dpi / 72 : 1;
    for (const finding of findIndianOnPage(layer, options.types).findings) {
      detections.push(finding);
      const runs = lineRuns(finding.charQuads);
      const covers = runs.map((run) => {
        if (layer.source === 'pdf') return spanQuad(run, 0, run.length - 1, PDF_TEXT_PAD);
        // OCR's margin stops at the space before the neighbouring word, as the pixels show it.
        const [before, after] = neighbourCuts(raster, run, OCR_PAD);
        return spanQuad(run, 0, run.length - 1, OCR_PAD, after, before);
      });
      addRegion(regions, {
        cores: runs.map((run) => scaleQuad(spanQuad(run, 0, run.length - 1, 0), toRaster)),
        quads: covers.map((quad) => scaleQuad(quad, toRaster)),
        unverified: finding.rule === UNVERIFIED_RULE,
        // Read again only where OCR placed the cover: a PDF's own text gives exact glyph boxes.
        hidden: layer.source === 'ocr' ? finding.value : undefined,
      });
    }
  }
  // Started beside the reading (13-31 ms less per dense scanned page in paired runs); a page
  // read from its text layer alone, with drawings, is searched now.
  if (searchQr(read.content)) {
    for (const symbol of await qr.symbols(raster)) {
      if (symbol.kind !== 'aadhaar_xml' && symbol.kind !== 'unreadable') continue;
      // Nothing on this page stays partly readable: the cover keeps off the words beside it.
      // Every reading's characters, in the pixels of the page as covered (at `dpi`).
      const chars = charactersRead(read.layers, (l) => (l.source === 'pdf' ? dpi / 72 : 1));
      const words = wordsBeside(chars, symbol.quad);
      addRegion(regions, { cores: [symbol.quad], quads: [qrCover(symbol.quad, 1, [], words)] });
      detections.push({
        type: 'aadhaar',
        page: index,
        value: '',
        charQuads: [symbol.quad],
        orientation: 0,
        confidence: 1,
        rule: `qr_${symbol.kind}`,
        // Found in the pixels, like an OCR reading; a QR has no printed value.
        source: 'ocr',
        printed: '',
      });
    }
  }
  const ocrLines = ocrLinesOf(read);
  return { raster, rendered: page?.kind !== 'raster', dpi, regions, detections, ocrLines };
}

export async function redactDocument(
  document: Document,
  options: RedactOptions,
  ocr: OcrEngine,
): Promise<RedactResult> {
  const outcomes: PageOutcome[] = [];
  let checked = false;
  /** A page's pixels covered, read again (widened where a value still reads) when asked for. */
  const covered = async (o: PageOutcome, page: number): Promise<RasterImage> => {
    const reread = options.residualCheck ? { ocr, how: INDIAN_READ, lines: o.ocrLines } : null;
    if (o.raster === null) throw new Error('a page covered twice');
    const cover = o.rendered ? box.imageInPlace : box.image;
    const done = await coverImagePage(o.raster, o.regions, page, cover, reread);
    checked ||= done.checked;
    o.raster = null;
    return done.pixels;
  };
  // Once anything is to be covered, a PDF's pages are covered and encoded as they are done,
  // the encoding (sharp's threads) overlapping the reading of the next page.
  const encoded: Promise<EncodedPage>[] = [];
  const encodeUpTo = (count: number): void => {
    for (let page = encoded.length; page < count; page += 1) {
      const o = outcomes[page] as PageOutcome;
      encoded.push(covered(o, page).then((pixels) => encodePage(pixels, o.dpi)));
    }
  };
  const toPdf = document.format === 'pdf';
  try {
    for (let index = 0; index < document.pages.length; index += 1) {
      outcomes.push(await redactPage(document, index, options, ocr));
      if (toPdf && outcomes.some((o) => o.regions.length > 0)) encodeUpTo(outcomes.length);
    }
  } finally {
    // No encoding is left running when a page fails.
    await Promise.allSettled(encoded);
  }
  const redactedCount = outcomes.reduce((sum, o) => sum + o.regions.length, 0);
  const unverifiedCount = outcomes.reduce(
    (sum, o) => sum + o.regions.filter((r) => r.unverified).length,
    0,
  );
  const typeCounts: Partial<Record<IndianType, number>> = {};
  for (const finding of outcomes.flatMap((o) => o.detections)) {
    const type = finding.type as IndianType;
    typeCounts[type] = (typeCounts[type] ?? 0) + 1;
  }
  const pages = document.pages.length;
  const result = { redactedCount, unverifiedCount, typeCounts, pages };
  if (redactedCount === 0) {
    // The same document, written whole (an image without its metadata), never the input bytes.
    const written = await rewriteDocument(document, { keepMetadata: false });
    return { ...result, regions: regionsOf(outcomes), residualCheck: 'none', ...written };
  }
  const outcome = () =>
    ({
      ...result,
      // After the re-read, which may have widened some covers.
      regions: regionsOf(outcomes),
      residualCheck: !options.residualCheck ? 'skipped' : checked ? 'passed' : 'none',
    }) as const;
  if (!toPdf) {
    const [only] = outcomes;
    if (!only || outcomes.length !== 1) throw new Error('an image document of several pages');
    const format = document.format === 'jpeg' ? 'jpeg' : 'png';
    const bytes = await encodeImage(await covered(only, 0), format);
    return { ...outcome(), bytes, format };
  }
  const bytes = encodedPagesToPdf(await Promise.all(encoded));
  return { ...outcome(), bytes, format: 'pdf' };
}

function regionsOf(outcomes: readonly PageOutcome[]): RedactResult['regions'] {
  return outcomes.map((o, page) => ({
    page,
    dpi: o.dpi,
    quads: o.regions.flatMap((r) => r.quads),
  }));
}

/** Values compared by their letters and digits, read as text (e-mail addresses, PANs, phones). */
const INDIAN_READ: ReadFor = {
  normalise: (text) => text.toUpperCase().replace(/[^A-Z0-9]/g, ''),
  purpose: 'text',
};

/** The service entry point: file bytes in, redacted file out (used by the API, bulk and CLI). */
export const redactPiiFile = fileService(
  INDIAN_FORMATS,
  (document, types: readonly IndianType[], ocr, context): Promise<RedactResult> =>
    redactDocument(
      document,
      { types, pdfDpi: context.pdfOcrDpi, residualCheck: context.residualCheck },
      ocr,
    ),
);
