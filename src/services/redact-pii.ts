/**
 * Redacting Indian identifiers (interface.md, POST /redact-pii): the pipeline of DESIGN.md with
 * whole-value covers as the apply step. Every page becomes pixels: an image as it is, a PDF page
 * rendered (interface.md: PDFs are rasterised before redaction, so that no text remains under a
 * cover); its text is read from the PDF's own text layer where it has one and by OCR where it
 * holds images; each identifier found is covered whole, on both lines when it is broken over
 * two. The legacy Aadhaar XML QR (it holds the full number) and QR codes that cannot be decoded
 * are covered when `aadhaar` is asked for. A page that cannot be read fails the document.
 */
import { scanQrCodes } from '../cards/qr-scan.js';
import { findIndianOnPage } from '../detection/indian.js';
import type { Finding } from '../detection/types.js';
import { INDIAN_FORMATS, type Document } from '../documents/document.js';
import { renderPdfPage } from '../documents/render.js';
import {
  encodeImage,
  IMAGE_PAGE_DPI,
  imagesToPdf,
  type WrittenFormat,
} from '../documents/writers.js';
import { INDIAN_TYPES } from '../identifiers/india.js';
import { INDIAN_TYPE_NAMES, type IndianType } from '../identifiers/india-rules.js';
import { readPage } from '../ocr/read-document.js';
import type { OcrEngine, Quad, RasterImage } from '../ocr/types.js';
import { boundsOf, expandQuad, scaleQuad, spanQuad } from '../redaction/geometry.js';
import { coverQuads } from '../redaction/raster.js';
import { withDocument, type ServiceContext, type UploadedDocument } from './context.js';
import { UnknownTypeError } from './errors.js';

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

/** Resolution of PDF pages that are rasterised for their text layer alone (no OCR needed). */
export const REDACTION_RASTER_DPI = 200;

export interface RedactOptions {
  readonly types: readonly IndianType[];
  /** Resolution at which PDF pages holding images are rendered to OCR them. */
  readonly pdfDpi: number;
}

export interface RedactResult {
  readonly bytes: Buffer;
  readonly format: WrittenFormat;
  /** Merged regions covered (X-Redacted-Count); zero means nothing was found. */
  readonly redactedCount: number;
  /** Detections per type (X-Redacted-Types): a value read twice counts twice. */
  readonly typeCounts: Readonly<Partial<Record<IndianType, number>>>;
  readonly pages: number;
  /** What was covered, per page, in the pixels of the page as written. */
  readonly regions: readonly { readonly page: number; readonly quads: readonly Quad[] }[];
}

interface Region {
  readonly quads: Quad[];
}

function overlaps(a: Quad, b: Quad): boolean {
  const p = boundsOf(a);
  const q = boundsOf(b);
  return Math.min(p.x1, q.x1) > Math.max(p.x0, q.x0) && Math.min(p.y1, q.y1) > Math.max(p.y0, q.y0);
}

/** A region overlapping an existing one (the same value read twice) joins it. */
function addRegion(regions: Region[], quads: readonly Quad[]): void {
  const existing = regions.find((r) => r.quads.some((q) => quads.some((n) => overlaps(q, n))));
  if (existing) existing.quads.push(...quads);
  else regions.push({ quads: [...quads] });
}

const centre = (q: Quad) => ({ x: (q[0].x + q[2].x) / 2, y: (q[0].y + q[2].y) / 2 });

/** Whether `next` follows `previous` on the same printed line, whatever the line's direction. */
function sameLine(previous: Quad, next: Quad): boolean {
  const across = { x: previous[3].x - previous[0].x, y: previous[3].y - previous[0].y };
  const height = Math.hypot(across.x, across.y);
  if (height === 0) return false;
  const [a, b] = [centre(previous), centre(next)];
  const offset = { x: b.x - a.x, y: b.y - a.y };
  const drift = Math.abs((offset.x * across.x + offset.y * across.y) / height);
  return drift < 0.6 * height && Math.hypot(offset.x, offset.y) < 3 * height;
}

/**
 * The covers of one finding: one padded quad per line it is printed on (a value broken over two
 * lines has two runs of characters).
 */
function coversOf(finding: Finding): Quad[] {
  const runs: Quad[][] = [];
  for (const quad of finding.charQuads) {
    const run = runs.at(-1);
    const previous = run?.at(-1);
    if (run && previous && sameLine(previous, quad)) run.push(quad);
    else runs.push([quad]);
  }
  return runs.map((run) => spanQuad(run, 0, run.length - 1, 0.2));
}

interface PageOutcome {
  readonly raster: RasterImage;
  /** Resolution of `raster` (an image page: the writers' default, it has no other). */
  readonly dpi: number;
  readonly regions: Region[];
  readonly detections: readonly Finding[];
}

async function redactPage(
  document: Document,
  index: number,
  options: RedactOptions,
  ocr: OcrEngine,
): Promise<PageOutcome> {
  const read = await readPage(document, index, ocr, { pdfDpi: options.pdfDpi, purpose: 'text' });
  const page = document.pages[index];
  let raster: RasterImage;
  let dpi: number;
  if (page?.kind === 'raster') {
    [raster, dpi] = [page, IMAGE_PAGE_DPI];
  } else if (read.raster) {
    [raster, dpi] = [read.raster, options.pdfDpi];
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
      addRegion(
        regions,
        coversOf(finding).map((q) => scaleQuad(q, toRaster)),
      );
    }
  }
  if (options.types.includes('aadhaar')) {
    for (const symbol of await scanQrCodes(raster)) {
      if (symbol.kind !== 'aadhaar_xml' && symbol.kind !== 'unreadable') continue;
      const side = boundsOf(symbol.quad).x1 - boundsOf(symbol.quad).x0;
      addRegion(regions, [expandQuad(symbol.quad, 0.08 * side)]);
      detections.push({
        type: 'aadhaar',
        page: index,
        value: '',
        charQuads: [symbol.quad],
        orientation: 0,
        confidence: 1,
        rule: `qr_${symbol.kind}`,
      });
    }
  }
  return { raster, dpi, regions, detections };
}

export async function redactDocument(
  document: Document,
  options: RedactOptions,
  ocr: OcrEngine,
): Promise<RedactResult> {
  const outcomes: PageOutcome[] = [];
  for (let index = 0; index < document.pages.length; index += 1) {
    outcomes.push(await redactPage(document, index, options, ocr));
  }
  const redactedCount = outcomes.reduce((sum, o) => sum + o.regions.length, 0);
  const typeCounts: Partial<Record<IndianType, number>> = {};
  for (const finding of outcomes.flatMap((o) => o.detections)) {
    const type = finding.type as IndianType;
    typeCounts[type] = (typeCounts[type] ?? 0) + 1;
  }
  const regions = outcomes.map((o, page) => ({
    page,
    quads: o.regions.flatMap((r) => r.quads),
  }));
  const pages = document.pages.length;
  if (redactedCount === 0) {
    return {
      bytes: document.bytes,
      format: document.format as WrittenFormat,
      redactedCount,
      typeCounts,
      pages,
      regions,
    };
  }
  const covered = outcomes.map((o, page) => coverQuads(o.raster, regions[page]?.quads ?? []));
  const [single] = covered;
  if (document.format !== 'pdf' && single && covered.length === 1) {
    const format = document.format === 'jpeg' ? 'jpeg' : 'png';
    return {
      bytes: await encodeImage(single, format),
      format,
      redactedCount,
      typeCounts,
      pages,
      regions,
    };
  }
  const bytes = await imagesToPdf(
    covered,
    outcomes.map((o) => o.dpi),
  );
  return { bytes, format: 'pdf', redactedCount, typeCounts, pages, regions };
}

/** The service entry point: file bytes in, redacted file out (used by the API, bulk and CLI). */
export async function redactPiiFile(
  context: ServiceContext,
  upload: UploadedDocument,
  types: readonly IndianType[],
): Promise<RedactResult> {
  const ocr = await context.ocr();
  return withDocument(context, upload, INDIAN_FORMATS, (document) =>
    redactDocument(document, { types, pdfDpi: context.pdfOcrDpi }, ocr),
  );
}
