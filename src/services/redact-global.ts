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
import type { GlobalPageFinding } from '../detection/global-page.js';
import { findGlobalInText } from '../detection/global-text.js';
import { GLOBAL_FORMATS, type Document, type FileFormat } from '../documents/document.js';
import { mupdf } from '../documents/mupdf.js';
import { annotationTexts, rewriteAnnotationTexts } from '../documents/pdf-annotations.js';
import {
  encodeImageForOutput,
  OUTPUT_FORMAT_FOR,
  stripPdfMetadata,
} from '../documents/metadata-strip.js';
import { savePdfOutput } from '../documents/pdf-output.js';
import { rewriteDocument } from '../documents/rewrite.js';
import type { GlobalRule } from '../identifiers/global-rule.js';
import type { Quad } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';
import type { OcrEngine } from '../ocr/types.js';
import { neighbourCuts } from '../redaction/ink-gap.js';
import { coverQuads } from '../redaction/raster.js';
import {
  lineRuns,
  scaleQuad,
  spanQuad,
  stretchToBlock,
  type SpanPad,
} from '../redaction/geometry.js';
import { replacePdfRegions } from '../redaction/pdf-text-replace.js';
import { blurQuads, replaceQuads } from '../redaction/raster-replace.js';
import { fileService } from './context.js';
import { searchDocument, type DetectReport } from './detect-global.js';
import { InvalidOptionError } from './errors.js';
import type { GlobalRedactChoices, Mode } from './global-options.js';
import { replaceFindings, replacementFor } from './redact-text.js';
import { StandIns } from './stand-ins.js';

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
}

/** One region to change: in page units (PDF points or image pixels), with its replacement. */
interface Edit {
  readonly quad: Quad;
  /** The replaced characters' own box (no margin): where a drawn replacement takes its line. */
  readonly textQuad: Quad;
  readonly source: GlobalPageFinding['source'];
  /** Null: covered (box) or blurred; a string: drawn in place ('' for the rest of a value). */
  readonly text: string | null;
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

function replacementOf(
  finding: GlobalPageFinding,
  rule: GlobalRule | undefined,
  options: GlobalRedactOptions,
  standIns: StandIns,
): string | null {
  if (options.mode === 'box' || options.mode === 'blur') return null;
  return replacementFor(finding, finding.printed, rule, options.mode, options.maskKeep, standIns);
}

/** The edits of one page: each reading's runs, its replacement on the first run. */
function editsOf(
  findings: readonly GlobalPageFinding[],
  options: GlobalRedactOptions,
  standIns: StandIns,
  toPage: (finding: GlobalPageFinding, quad: Quad) => Quad,
  raster: RasterImage | null,
): Edit[] {
  const rules = new Map(options.rules.map((r) => [r.type, r]));
  const edits: Edit[] = [];
  for (const finding of findings) {
    const rule = rules.get(finding.type);
    const text = replacementOf(finding, rule, options, standIns);
    const ocr = finding.source === 'ocr';
    const runs = lineRuns(finding.charQuads);
    const covers = runs.map((run) => {
      // OCR's margin stops at the space before the neighbouring word, as the pixels show it.
      const [before, after] =
        ocr && raster ? neighbourCuts(raster, run, OCR_PAD.along) : [null, null];
      return spanQuad(run, 0, run.length - 1, ocr ? OCR_PAD : 0, after, before);
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
      const drawn = text === null ? null : i === 0 ? text : '';
      edits.push({ quad, textQuad, source: finding.source, text: drawn });
    });
  }
  return edits;
}

function applyToRaster(image: RasterImage, edits: readonly Edit[], mode: Mode): RasterImage {
  if (edits.length === 0) return image;
  if (mode === 'box')
    return coverQuads(
      image,
      edits.map((e) => e.quad),
    );
  if (mode === 'blur')
    return blurQuads(
      image,
      edits.map((e) => e.quad),
    );
  return replaceQuads(
    image,
    edits.map((e) => ({ ...e, text: e.text ?? '' })),
  );
}

/** Every word of a PDF's text, to prove a value's text is gone after saving. */
function pdfText(bytes: Buffer): string {
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  try {
    let text = '';
    for (let i = 0; i < doc.countPages(); i += 1) {
      const page = doc.loadPage(i);
      const structured = page.toStructuredText('preserve-whitespace');
      text += `${structured.asText()}\n`;
      structured.destroy();
      page.destroy();
    }
    return text;
  } finally {
    doc.destroy();
  }
}

/** Whether any annotation or form field of the saved PDF still holds a value. */
function notesHoldValues(bytes: Buffer, options: GlobalRedactOptions): boolean {
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF();
  if (!doc) return false;
  try {
    for (let i = 0; i < doc.countPages(); i += 1) {
      for (const text of annotationTexts(doc, i)) {
        const found = findGlobalInText(text, options.rules, { countries: options.countries });
        if (found.findings.length > 0) return true;
      }
    }
    return false;
  } finally {
    doc.destroy();
  }
}

const compactText = (text: string) => text.replace(/[\s\-./]/g, '').toUpperCase();

export async function redactGlobalDocument(
  document: Document,
  options: GlobalRedactOptions,
  ocr: OcrEngine,
  limits: { readonly pdfDpi: number; readonly maxOcrPages: number },
): Promise<GlobalRedactResult> {
  if (options.mode === 'blur' && document.format === 'pdf') {
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
  const edits = new Map<number, Edit[]>();
  /** Values read from a PDF's own text: their text must be gone from the output. */
  const pdfValues: string[] = [];
  for (const { index, read, found } of searched) {
    // OCR quads are in the rendered page's pixels; a PDF's own text is in points already.
    const toPage = (finding: GlobalPageFinding, quad: Quad): Quad =>
      document.pdf && finding.source === 'ocr' ? scaleQuad(quad, read.rasterToPage) : quad;
    edits.set(index, editsOf(found.all, options, standIns, toPage, read.raster));
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
    return { ...base, ...(await rewriteDocument(document, { keepMetadata })) };
  }
  if (pdf) {
    for (const [page, pageEdits] of edits) {
      if (pageEdits.length > 0) replacePdfRegions(pdf, page, pageEdits);
      // Annotation contents and form field values: the same replacements, in their text.
      rewriteAnnotationTexts(pdf, page, (text) => {
        const found = findGlobalInText(text, options.rules, { countries: options.countries });
        return replaceFindings(text, found.findings, options, standIns);
      });
    }
    if (options.stripMetadata) stripPdfMetadata(pdf);
    const bytes = savePdfOutput(pdf);
    const left = compactText(pdfText(bytes));
    if (pdfValues.some((v) => left.includes(compactText(v)))) {
      throw new Error('a redacted value is still in the PDF text');
    }
    if (notesHoldValues(bytes, options)) {
      throw new Error('a redacted value is still in an annotation or a form field');
    }
    return { ...base, bytes, format: 'pdf' };
  }
  const pages = document.pages.map((page, index) =>
    page.kind === 'raster' ? applyToRaster(page, edits.get(index) ?? [], options.mode) : null,
  );
  if (pages.some((p) => p === null)) throw new Error('an image document with a PDF page');
  const bytes = await encodeImageForOutput(
    pages as RasterImage[],
    outputFormat,
    // A BMP holds no metadata to keep (and sharp cannot open one).
    options.stripMetadata || document.format === 'bmp' ? {} : { keepMetadataFrom: document.bytes },
  );
  return { ...base, bytes, format: outputFormat };
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
