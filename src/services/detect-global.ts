/**
 * The global detect report (README, POST /global/detect): the read and find steps of the
 * pipeline, nothing applied. A PDF page's own text is read directly; a scanned PDF page and every
 * image page (each TIFF frame) are OCR'd, at most `maxOcrPages` of them per document; pages past
 * that are listed in `ocr.skipped_pages` (and a PDF page's own text is still searched), so that
 * "nothing found" is never said of a page nobody read. Values never leave this module: the
 * report carries previews (mostly asterisks), types, pages and the rule that validated them.
 */
import { findGlobalOnPage } from '../detection/global-page.js';
import { findGlobalInText } from '../detection/text-finder.js';
import type { Finding, RejectedCandidate } from '../detection/types.js';
import { GLOBAL_FORMATS, type Document } from '../documents/document.js';
import { DocumentError } from '../domain/errors.js';
import { metadataPresent } from '../documents/metadata.js';
import { annotationTexts } from '../documents/pdf-annotations.js';
import type { GlobalRule } from '../identifiers/global-rule.js';
import { previewOf, previewOfPrinted } from '../identifiers/preview.js';
import { ocrNeeded, readPage } from '../ocr/read-document.js';
import type { RasterImage } from '../domain/raster.js';
import type { PageText } from '../domain/text-layer.js';
import type { OcrEngine } from '../ocr/types.js';
import { fileService } from './context.js';

export interface DetectOptions {
  readonly rules: readonly GlobalRule[];
  readonly countries: readonly string[];
  readonly maxOcrPages: number;
  readonly pdfDpi: number;
}

export interface DetectedEntity {
  readonly type: string;
  readonly value_preview: string;
  /** 1-based. */
  readonly page: number;
  readonly confidence: number;
  readonly validated: true;
  readonly validation: string;
}

/** A refused candidate as the detect report shows it (`rejected_candidates`). */
export interface RejectionReport {
  readonly type: string;
  readonly reason: string;
  readonly value_preview: string;
  readonly page: number;
}

export interface OcrBlock {
  /** The pages read by OCR (1-based). */
  readonly pages: readonly number[];
  /** Mean recognition confidence over the characters OCR read, 0-1; null when it read none. */
  readonly confidence: number | null;
  readonly per_page: readonly {
    readonly page: number;
    readonly confidence: number | null;
    readonly lines: number;
  }[];
  /** Pages that needed OCR but were past the page limit: not read (1-based). */
  readonly skipped_pages: readonly number[];
  readonly page_limit: number;
}

export interface DetectReport {
  readonly entities: readonly DetectedEntity[];
  readonly rejected_candidates: readonly RejectionReport[];
  readonly summary: Readonly<Record<string, number>>;
  readonly file_type: string;
  readonly pages: number;
  readonly metadata_present: readonly string[];
  /** Present when any page needed OCR. */
  readonly ocr?: OcrBlock;
}

const FILE_TYPES: Record<Document['format'], string> = {
  pdf: 'PDF',
  png: 'PNG',
  jpeg: 'JPEG',
  webp: 'WEBP',
  tiff: 'TIFF',
  bmp: 'BMP',
};

const round = (n: number) => Math.round(n * 100) / 100;

/** The characters OCR read on the layer, and their mean confidence (null when none). */
function charConfidence(layer: PageText): { chars: number; confidence: number | null } {
  let chars = 0;
  let sum = 0;
  for (const line of layer.lines) {
    chars += line.chars.length;
    sum += line.confidence * line.chars.length;
  }
  return { chars, confidence: chars === 0 ? null : sum / chars };
}

/** One page as the global endpoints read it. */
export interface GlobalPageRead {
  readonly index: number;
  /** The PDF's own text and/or the OCR reading. */
  readonly layers: readonly PageText[];
  /** The pixels OCR read (an image page, or a PDF page rendered), with their factor to page units. */
  readonly raster: RasterImage | null;
  readonly rasterToPage: number;
  /** Set when the page was OCR'd. */
  readonly ocr: {
    readonly confidence: number | null;
    readonly lines: number;
    /** Characters read, which weigh the page's confidence in the document's. */
    readonly chars: number;
  } | null;
  /** The page needed OCR but the document's OCR budget was spent: it was not read. */
  readonly skipped: boolean;
}

/**
 * Reads page `index`: a PDF page of text from its text layer; an image page, or a PDF page
 * without text or holding images, by OCR while `ocrLeft` allows (else `skipped`).
 */
async function readGlobalPage(
  document: Document,
  index: number,
  ocr: OcrEngine,
  pdfDpi: number,
  ocrLeft: boolean,
): Promise<GlobalPageRead> {
  const read = await readPage(document, index, ocr, {
    pdfDpi,
    purpose: 'document',
    ocr: ocrLeft,
  });
  if (read.raster === null) {
    return {
      index,
      layers: read.layers,
      raster: null,
      rasterToPage: 1,
      ocr: null,
      skipped: ocrNeeded(read),
    };
  }
  const ocrLayer = read.layers.find((l) => l.source === 'ocr');
  const { chars, confidence } = ocrLayer
    ? charConfidence(ocrLayer)
    : { chars: 0, confidence: null };
  return {
    index,
    layers: read.layers,
    raster: read.raster,
    rasterToPage: read.rasterToPage,
    ocr: { confidence, lines: ocrLayer?.lines.length ?? 0, chars },
    skipped: false,
  };
}

/**
 * One page's findings over its layers. `all`: every reading, each to be covered; `counted`: a
 * value read twice (its own text and OCR) counts as often as the layer that found it most often.
 */
function globalPageFindings(
  read: GlobalPageRead,
  rules: readonly GlobalRule[],
  countries: readonly string[],
) {
  const hints = { countries };
  const best = new Map<string, Finding[]>();
  const all: Finding[] = [];
  const rejected: RejectedCandidate[] = [];
  for (const layer of read.layers) {
    const found = findGlobalOnPage(layer, rules, hints);
    all.push(...found.findings);
    rejected.push(...found.rejected);
    const byValue = new Map<string, Finding[]>();
    for (const f of found.findings) {
      const key = `${f.type}\u0000${f.value}`;
      byValue.set(key, [...(byValue.get(key) ?? []), f]);
    }
    for (const [key, list] of byValue) {
      if (list.length > (best.get(key)?.length ?? 0)) best.set(key, list);
    }
  }
  return { counted: [...best.values()].flat(), all, rejected };
}

/** The report's entries for one page's counted findings and rejections (previews only). */
function reportEntries(
  number: number,
  counted: readonly Pick<Finding, 'type' | 'value' | 'confidence' | 'rule'>[],
  rejected: readonly Pick<RejectedCandidate, 'type' | 'reason' | 'preview'>[],
): { entities: DetectedEntity[]; rejected: RejectionReport[] } {
  return {
    entities: counted.map((f) => ({
      type: f.type,
      value_preview: previewOf(f.value),
      page: number,
      confidence: round(f.confidence),
      validated: true,
      validation: f.rule,
    })),
    rejected: rejected.map((r) => ({
      type: r.type,
      reason: r.reason,
      value_preview: r.preview ?? '',
      page: number,
    })),
  };
}

/**
 * The report's entries for the text a PDF page carries outside its content (annotation
 * contents, text field values): found and counted like the page's own text.
 */
function annotationEntries(
  document: Document,
  index: number,
  rules: readonly GlobalRule[],
  countries: readonly string[],
): { entities: DetectedEntity[]; rejected: RejectionReport[] } {
  const entities: DetectedEntity[] = [];
  const rejected: RejectionReport[] = [];
  if (!document.pdf) return { entities, rejected };
  for (const text of annotationTexts(document.pdf, index)) {
    const found = findGlobalInText(text, rules, { countries });
    const entries = reportEntries(
      index + 1,
      found.findings,
      found.rejected.map((r) => ({
        ...r,
        preview: previewOfPrinted(text.slice(r.start, r.end)),
      })),
    );
    entities.push(...entries.entities);
    rejected.push(...entries.rejected);
  }
  return { entities, rejected };
}

/** The `ocr` block of a report, from the pages read; undefined when no page needed OCR. */
function ocrBlock(reads: readonly SearchedPageRead[], limit: number): OcrBlock | undefined {
  const ocrd = reads.filter((r) => r.ocr !== null);
  const skipped = reads.filter((r) => r.skipped).map((r) => r.index + 1);
  if (ocrd.length === 0 && skipped.length === 0) return undefined;
  let chars = 0;
  let sum = 0;
  for (const r of ocrd) {
    chars += r.ocr?.chars ?? 0;
    sum += (r.ocr?.confidence ?? 0) * (r.ocr?.chars ?? 0);
  }
  return {
    pages: ocrd.map((r) => r.index + 1),
    confidence: chars === 0 ? null : round(sum / chars),
    per_page: ocrd.map((r) => ({
      page: r.index + 1,
      confidence: r.ocr?.confidence == null ? null : round(r.ocr.confidence),
      lines: r.ocr?.lines ?? 0,
    })),
    skipped_pages: skipped,
    page_limit: limit,
  };
}

/**
 * What is kept of a page once it has been searched: not its text. A document's pages are all
 * searched before any is redacted, and holding every page's characters until then (six objects
 * each) made the garbage collector copy them again and again while the next pages were read: on
 * 50 letter pages reading the characters took 12 times as long as with one page's alive.
 */
export type SearchedPageRead = Omit<GlobalPageRead, 'layers'>;

const searchedRead = (read: GlobalPageRead): SearchedPageRead => ({
  index: read.index,
  raster: read.raster,
  rasterToPage: read.rasterToPage,
  ocr: read.ocr,
  skipped: read.skipped,
});

/** One page as read and searched: what the apply step of global redaction works from. */
export interface GlobalPageSearch {
  readonly index: number;
  readonly read: SearchedPageRead;
  readonly found: ReturnType<typeof globalPageFindings>;
}

/**
 * The read and find steps of the global endpoints: every page read (its text layer, or OCR up
 * to `maxOcrPages`), the catalogue run over it and over its annotations, and the detect report.
 * `everyPage`: a page left unread for the OCR budget fails the request (redaction must not
 * return a page nobody read), where detection reports it as skipped.
 */
export async function searchDocument(
  document: Document,
  options: DetectOptions,
  ocr: OcrEngine,
  everyPage: boolean,
): Promise<{ readonly pages: GlobalPageSearch[]; readonly report: DetectReport }> {
  const metadata = await metadataPresent(document);
  const entities: DetectedEntity[] = [];
  const rejectedCandidates: RejectionReport[] = [];
  const summary: Record<string, number> = {};
  const pages: GlobalPageSearch[] = [];
  for (let index = 0; index < document.pages.length; index += 1) {
    const ocrUsed = pages.filter((p) => p.read.ocr !== null).length;
    const read = await readGlobalPage(
      document,
      index,
      ocr,
      options.pdfDpi,
      ocrUsed < options.maxOcrPages,
    );
    if (everyPage && read.skipped) {
      throw new DocumentError(
        'too_many_pages',
        `The document needs OCR on more than ${options.maxOcrPages} pages; at most ` +
          `${options.maxOcrPages} can be redacted in one request.`,
      );
    }
    const found = globalPageFindings(read, options.rules, options.countries);
    pages.push({ index, read: searchedRead(read), found });
    const entries = reportEntries(index + 1, found.counted, found.rejected);
    const notes = annotationEntries(document, index, options.rules, options.countries);
    for (const e of [...entries.entities, ...notes.entities]) {
      summary[e.type] = (summary[e.type] ?? 0) + 1;
    }
    entities.push(...entries.entities, ...notes.entities);
    rejectedCandidates.push(...entries.rejected, ...notes.rejected);
  }
  const block = ocrBlock(
    pages.map((p) => p.read),
    options.maxOcrPages,
  );
  const report: DetectReport = {
    entities,
    rejected_candidates: rejectedCandidates,
    summary,
    file_type: FILE_TYPES[document.format],
    pages: document.pages.length,
    metadata_present: metadata,
    ...(block ? { ocr: block } : {}),
  };
  return { pages, report };
}

async function detectDocument(
  document: Document,
  options: DetectOptions,
  ocr: OcrEngine,
): Promise<DetectReport> {
  return (await searchDocument(document, options, ocr, false)).report;
}

/** The service entry point: file bytes in, the report out (used by the API and the CLI). */
export const detectGlobalFile = fileService(
  GLOBAL_FORMATS,
  (
    document,
    options: Omit<DetectOptions, 'pdfDpi' | 'maxOcrPages'>,
    ocr,
    context,
  ): Promise<DetectReport> =>
    detectDocument(
      document,
      { ...options, pdfDpi: context.pdfOcrDpi, maxOcrPages: context.maxOcrPages },
      ocr,
    ),
);
