/**
 * Redacting global identifiers in a file (README, POST /global/redact): the read and find
 * steps of the detect report (detect-global.ts), then every reading of every value replaced in
 * the chosen mode. PDFs keep their text: each value is removed from the content stream by a
 * MuPDF redaction (image pixels under it blanked too, which is how a scanned page's values go),
 * and for `mask`, `token` and `pseudonym` the replacement is drawn in its place as real text;
 * `box` leaves a black box. Images are changed in their pixels (`blur` is for images only).
 * Tokens and pseudonyms come from one StandIns per document: consistent over its pages,
 * unrelated to any other document. Fails closed: a page that needs OCR past the page limit
 * fails the document, and a PDF is reopened after saving to prove the values' text is gone.
 */
import type { Finding } from '../detection/types.js';
import { findGlobalInText } from '../detection/text-finder.js';
import { GLOBAL_FORMATS, type Document, type FileFormat } from '../documents/document.js';
import { rewriteAnnotationTexts } from '../documents/pdf-annotations.js';
import {
  encodeImageForOutput,
  OUTPUT_FORMAT_FOR,
  stripPdfMetadata,
} from '../documents/metadata-strip.js';
import { savePdfOutput } from '../documents/pdf-output.js';
import { rewriteDocument } from '../documents/rewrite.js';
import type { Quad } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';
import type { OcrEngine } from '../ocr/types.js';
import { assertPdfClean, findLeftovers, type CleanChecks } from '../pipeline/clean-output.js';
import { rasterisePdfPage } from '../redaction/pdf-page-raster.js';
import { neighbourCuts, withinOwnLine } from '../redaction/ink-gap.js';
import {
  lineRuns,
  scaleQuad,
  spanQuad,
  stretchToBlock,
  type SpanPad,
} from '../redaction/geometry.js';
import { operatorFor, type ModeOperator } from '../redaction/operators/by-mode.js';
import type { Replacement } from '../redaction/operators/types.js';
import { StandIns } from '../redaction/stand-ins.js';
import { replaceFindings } from '../redaction/text-replace.js';
import { fileService } from './context.js';
import { searchDocument, type DetectReport } from './detect-global.js';
import { InvalidOptionError } from './errors.js';
import type { GlobalRedactChoices } from './global-options.js';

export interface GlobalRedactOptions extends GlobalRedactChoices {
  readonly stripMetadata: boolean;
}

export interface GlobalRedactResult {
  readonly bytes: Buffer;
  /** The output's format: the input's, but a BMP comes back as PNG (nothing writes BMP). */
  readonly format: FileFormat;
  /** Values replaced (X-Entities-Found); zero means nothing was found. */
  readonly entitiesFound: number;
  /** The types replaced (X-Entity-Types), in catalogue order of first appearance. */
  readonly types: readonly string[];
  /** The detect report of the input (entities, rejections, metadata, OCR). */
  readonly report: DetectReport;
  /**
   * Where the output was changed: per page (0-based), the replaced regions in page units (PDF
   * points or image pixels, origin top left). For tests and tools; never sent to clients.
   */
  readonly regions: readonly { readonly page: number; readonly quads: readonly Quad[] }[];
  /**
   * PDF pages (1-based) replaced by a covered picture of themselves because a value's text
   * could not be taken out of their content stream (X-Rasterised-Pages).
   */
  readonly rasterisedPages: readonly number[];
}

/** A PDF edit (points) as a cover on the page rendered at `dpi`. */
function inPixels(edit: Replacement, dpi: number): Replacement {
  const factor = dpi / 72;
  return {
    ...edit,
    quad: scaleQuad(edit.quad, factor),
    textQuad: scaleQuad(edit.textQuad, factor),
  };
}

/**
 * How far a cover reaches beyond a value's characters, in text heights: OCR's boxes are
 * estimates and get a margin, wider along the line (a line's last character was boxed 4 px
 * short of its ink at 150 dpi) than across it (the lines above and below stay readable); a PDF's
 * own glyph boxes are exact, and a margin there would take the neighbouring glyphs out of the
 * content stream too. Along the line the margin stops halfway to a visible neighbour anyway.
 */
const OCR_PAD = { across: 0.15, along: 0.3 } as const satisfies SpanPad;

/** The distance from one character to the next along the longest of the runs, as read. */
function pitchOf(runs: readonly (readonly Quad[])[]): number {
  const longest = runs.reduce<readonly Quad[]>((a, b) => (b.length > a.length ? b : a), []);
  const [first, last] = [longest[0], longest.at(-1)];
  if (!first || !last || longest.length < 2) return 0;
  return Math.hypot(last[1].x - first[0].x, last[1].y - first[0].y) / longest.length;
}

/** The edits of one page: each reading's runs, what the operator draws on the first run. */
function editsOf(
  findings: readonly Finding[],
  options: GlobalRedactOptions,
  operator: ModeOperator,
  standIns: StandIns,
  toPage: (finding: Finding, quad: Quad) => Quad,
  raster: RasterImage | null,
): Replacement[] {
  const rules = new Map(options.rules.map((r) => [r.type, r]));
  const edits: Replacement[] = [];
  for (const finding of findings) {
    const rule = rules.get(finding.type);
    const context = { rule, maskKeep: options.maskKeep, standIns };
    const text = operator.draw?.(finding, finding.printed, context) ?? '';
    const ocr = finding.source === 'ocr';
    const runs = lineRuns(finding.charQuads);
    const covers = runs.map((run) => {
      // OCR's margin stops at the space before the neighbouring word, as the pixels show it,
      // and short of the line above or below where it is printed close.
      const [before, after] =
        ocr && raster ? neighbourCuts(raster, run, OCR_PAD.along) : [null, null];
      const cover = spanQuad(run, 0, run.length - 1, ocr ? OCR_PAD : 0, after, before);
      if (!ocr || !raster || rule?.blockChars) return cover;
      return withinOwnLine(raster, cover, spanQuad(run, 0, run.length - 1, 0));
    });
    // OCR often misses an MRZ row's run of fillers (or splits it off as another line): that row
    // is covered to the width of the block, and the block to its printed width in characters
    // at the pitch of its longest row as read, else the zone kept part of its height there or
    // its end. A PDF's own text has every glyph.
    const quads =
      ocr && rule?.blockChars
        ? stretchToBlock(covers, rule.blockChars(finding.value) * pitchOf(runs))
        : covers;
    runs.forEach((run, i) => {
      const quad = toPage(finding, quads[i] as Quad);
      const textQuad = toPage(finding, spanQuad(run, 0, run.length - 1, 0));
      edits.push({ quad, textQuad, source: finding.source, text: i === 0 ? text : '' });
    });
  }
  return edits;
}

const compactText = (text: string) => text.replace(/[\s\-./]/g, '').toUpperCase();

export async function redactGlobalDocument(
  document: Document,
  options: GlobalRedactOptions,
  ocr: OcrEngine,
  limits: { readonly pdfDpi: number; readonly maxOcrPages: number },
): Promise<GlobalRedactResult> {
  const operator = operatorFor(options.mode);
  if (operator.pdf === null && document.format === 'pdf') {
    throw new InvalidOptionError(
      'invalid_mode',
      'blur is for images; a PDF keeps its text and is redacted from its content stream ' +
        '(use box, mask, token or pseudonym).',
    );
  }
  const { pages: searched, report } = await searchDocument(
    document,
    { ...options, ...limits },
    ocr,
    true,
  );
  const { entities } = report;
  const standIns = new StandIns();
  const edits = new Map<number, Replacement[]>();
  /** Values read from a PDF's own text: their text must be gone from the output. */
  const pdfValues: string[] = [];
  for (const { index, read, found } of searched) {
    // OCR quads are in the rendered page's pixels; a PDF's own text is in points already.
    const toPage = (finding: Finding, quad: Quad): Quad =>
      document.pdf && finding.source === 'ocr' ? scaleQuad(quad, read.rasterToPage) : quad;
    edits.set(index, editsOf(found.all, options, operator, standIns, toPage, read.raster));
    for (const f of found.all) if (f.source === 'pdf') pdfValues.push(f.value);
  }
  const types = [...new Set(entities.map((e) => e.type))];
  const outputFormat = OUTPUT_FORMAT_FOR[document.format];
  const regions = [...edits]
    .filter(([, e]) => e.length > 0)
    .map(([page, e]) => ({ page, quads: e.map((x) => x.quad) }));
  const base = { entitiesFound: entities.length, types, report, regions };
  const pdf = document.pdf;
  if (entities.length === 0) {
    // Nothing to redact: the same document written whole, without its metadata unless kept.
    if (pdf && options.stripMetadata) stripPdfMetadata(pdf);
    const keepMetadata = !options.stripMetadata;
    return {
      ...base,
      ...(await rewriteDocument(document, { keepMetadata })),
      rasterisedPages: [],
    };
  }
  if (pdf) {
    const { pdf: onPage, text: replace } = operator;
    // Refused above: only blur has no PDF form, and it has no text form either.
    if (!onPage || !replace) throw new Error('a PDF redacted by an operator without a PDF form');
    for (const [page, pageEdits] of edits) {
      if (pageEdits.length > 0) onPage(pdf, page, pageEdits);
      // Annotation contents and form field values: the same replacements, in their text.
      rewriteAnnotationTexts(pdf, page, (text) => {
        const found = findGlobalInText(text, options.rules, { countries: options.countries });
        return replaceFindings(text, found.findings, replace, options, standIns);
      });
    }
    if (options.stripMetadata) stripPdfMetadata(pdf);
    // Fail closed: no value read from the PDF's own text may be left in it, on any page, even
    // broken over two lines (lines are joined without a separator).
    // Nor in an annotation or a form field, where the same replacements were made.
    const checks: CleanChecks = {
      text: {
        removed: pdfValues.map((text) => ({ page: null, text })),
        how: { normalise: compactText, joiner: '' },
      },
      notes: (text) =>
        findGlobalInText(text, options.rules, { countries: options.countries }).findings.length > 0,
    };
    let bytes = savePdfOutput(pdf);
    const left = findLeftovers(bytes, checks);
    if (left.pages.length > 0 && !left.acrossPages && !left.inNotes) {
      // Text the content stream would not give up: those pages become pictures of themselves.
      for (const page of left.pages) {
        const covers = (edits.get(page) ?? []).map((e) => inPixels(e, limits.pdfDpi));
        await rasterisePdfPage(pdf, page, limits.pdfDpi, (pixels) =>
          covers.length > 0 ? operator.image(pixels, covers) : pixels,
        );
      }
      bytes = savePdfOutput(pdf);
      assertPdfClean(bytes, checks);
      return { ...base, bytes, format: 'pdf', rasterisedPages: left.pages.map((p) => p + 1) };
    }
    assertPdfClean(bytes, checks);
    return { ...base, bytes, format: 'pdf', rasterisedPages: [] };
  }
  const pages = document.pages.map((page, index) => {
    const pageEdits = edits.get(index) ?? [];
    if (page.kind !== 'raster') return null;
    return pageEdits.length === 0 ? page : operator.image(page, pageEdits);
  });
  if (pages.some((p) => p === null)) throw new Error('an image document with a PDF page');
  const bytes = await encodeImageForOutput(
    pages as RasterImage[],
    outputFormat,
    // A BMP holds no metadata to keep (and sharp cannot open one).
    options.stripMetadata || document.format === 'bmp' ? {} : { keepMetadataFrom: document.bytes },
  );
  return { ...base, bytes, format: outputFormat, rasterisedPages: [] };
}

/** The service entry point: file bytes in, the redacted file and its report out. */
export const redactGlobalFile = fileService(
  GLOBAL_FORMATS,
  (document, options: GlobalRedactOptions, ocr, context): Promise<GlobalRedactResult> =>
    redactGlobalDocument(document, options, ocr, {
      pdfDpi: context.pdfOcrDpi,
      maxOcrPages: context.maxOcrPages,
    }),
);
