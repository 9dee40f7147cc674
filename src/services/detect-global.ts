/**
 * The global detect report (interface.md, POST /global/detect): the read and find steps of the
 * pipeline, nothing applied. A PDF page's own text is read directly; a scanned PDF page and every
 * image page (each TIFF frame) are OCR'd, at most `maxOcrPages` of them per document; pages past
 * that are listed in `ocr.skipped_pages` (and a PDF page's own text is still searched), so that
 * "nothing found" is never said of a page nobody read. Values never leave this module: the
 * report carries previews (mostly asterisks), types, pages and the rule that validated them.
 */
import { findGlobalInText, type GlobalFinding } from '../detection/global-text.js';
import { GLOBAL_FORMATS, type Document } from '../documents/document.js';
import { metadataPresent } from '../documents/metadata.js';
import { describePdfPage } from '../documents/render.js';
import type { GlobalRule } from '../identifiers/global-rule.js';
import { previewOf } from '../identifiers/preview.js';
import { readPdfTextLayer } from '../ocr/pdf-text.js';
import { readPage } from '../ocr/read-document.js';
import type { OcrEngine, PageText } from '../ocr/types.js';
import { withDocument, type ServiceContext, type UploadedDocument } from './context.js';

/** A PDF page with less text than this, or this much of its area in images, is OCR'd. */
const IMAGE_COVERAGE_FOR_OCR = 0.02;

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

export interface RejectedCandidate {
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
  readonly rejected_candidates: readonly RejectedCandidate[];
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

/** A layer's text, one line a row, and the layer's lines (to average OCR confidence). */
const textOf = (layer: PageText) => layer.lines.map((l) => l.text).join('\n');

const round = (n: number) => Math.round(n * 100) / 100;

function meanConfidence(layer: PageText): number | null {
  let chars = 0;
  let sum = 0;
  for (const line of layer.lines) {
    chars += line.chars.length;
    sum += line.confidence * line.chars.length;
  }
  return chars === 0 ? null : sum / chars;
}

/**
 * One page's findings over its layers. A page read twice (its own text and OCR) finds a value
 * twice: each value counts as often as the layer that found it most often.
 */
function pageFindings(layers: readonly PageText[], options: DetectOptions) {
  const hints = { countries: options.countries };
  const best = new Map<string, GlobalFinding[]>();
  const rejected: { type: string; reason: string; value: string }[] = [];
  for (const layer of layers) {
    const text = textOf(layer);
    const found = findGlobalInText(text, options.rules, hints);
    const byValue = new Map<string, GlobalFinding[]>();
    for (const f of found.findings) {
      const key = `${f.type}\u0000${f.value}`;
      byValue.set(key, [...(byValue.get(key) ?? []), f]);
    }
    for (const [key, list] of byValue) {
      if (list.length > (best.get(key)?.length ?? 0)) best.set(key, list);
    }
    for (const r of found.rejected) {
      rejected.push({ type: r.type, reason: r.reason, value: text.slice(r.start, r.end) });
    }
  }
  return { findings: [...best.values()].flat(), rejected };
}

export async function detectDocument(
  document: Document,
  options: DetectOptions,
  ocr: OcrEngine,
): Promise<DetectReport> {
  const entities: DetectedEntity[] = [];
  const rejectedCandidates: RejectedCandidate[] = [];
  const summary: Record<string, number> = {};
  const ocrPages: OcrBlock['per_page'][number][] = [];
  const skipped: number[] = [];
  let ocrChars = 0;
  let ocrSum = 0;
  for (const [index, page] of document.pages.entries()) {
    const number = index + 1;
    let layers: PageText[];
    const needsOcr =
      page.kind === 'raster' ||
      (() => {
        if (!document.pdf) return false;
        const content = describePdfPage(document.pdf, index);
        return content.textChars === 0 || content.imageCoverage >= IMAGE_COVERAGE_FOR_OCR;
      })();
    if (needsOcr && ocrPages.length >= options.maxOcrPages) {
      skipped.push(number);
      layers = document.pdf ? [readPdfTextLayer(document.pdf, index)] : [];
    } else if (needsOcr) {
      const read = await readPage(document, index, ocr, {
        pdfDpi: options.pdfDpi,
        purpose: 'document',
      });
      layers = [...read.layers];
      const ocrLayer = read.layers.find((l) => l.source === 'ocr');
      const confidence = ocrLayer ? meanConfidence(ocrLayer) : null;
      for (const line of ocrLayer?.lines ?? []) {
        ocrChars += line.chars.length;
        ocrSum += line.confidence * line.chars.length;
      }
      ocrPages.push({
        page: number,
        confidence: confidence === null ? null : round(confidence),
        lines: ocrLayer?.lines.length ?? 0,
      });
    } else {
      layers = document.pdf ? [readPdfTextLayer(document.pdf, index)] : [];
    }
    const { findings, rejected } = pageFindings(layers, options);
    for (const f of findings.sort((a, b) => a.start - b.start)) {
      summary[f.type] = (summary[f.type] ?? 0) + 1;
      entities.push({
        type: f.type,
        value_preview: previewOf(f.value),
        page: number,
        confidence: round(f.confidence),
        validated: true,
        validation: f.rule,
      });
    }
    for (const r of rejected) {
      rejectedCandidates.push({
        type: r.type,
        reason: r.reason,
        value_preview: previewOf(r.value.replace(/\s+/g, '')),
        page: number,
      });
    }
  }
  const needed = ocrPages.length > 0 || skipped.length > 0;
  return {
    entities,
    rejected_candidates: rejectedCandidates,
    summary,
    file_type: FILE_TYPES[document.format],
    pages: document.pages.length,
    metadata_present: await metadataPresent(document),
    ...(needed
      ? {
          ocr: {
            pages: ocrPages.map((p) => p.page),
            confidence: ocrChars === 0 ? null : round(ocrSum / ocrChars),
            per_page: ocrPages,
            skipped_pages: skipped,
            page_limit: options.maxOcrPages,
          },
        }
      : {}),
  };
}

/** The service entry point: file bytes in, the report out (used by the API and the CLI). */
export async function detectGlobalFile(
  context: ServiceContext,
  upload: UploadedDocument,
  options: Omit<DetectOptions, 'pdfDpi' | 'maxOcrPages'>,
): Promise<DetectReport> {
  const ocr = await context.ocr();
  return withDocument(context, upload, GLOBAL_FORMATS, (document) =>
    detectDocument(
      document,
      { ...options, pdfDpi: context.pdfOcrDpi, maxOcrPages: context.maxOcrPages },
      ocr,
    ),
  );
}
