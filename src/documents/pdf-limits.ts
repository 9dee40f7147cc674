/**
 * Structural pre-check of an opened PDF, before any page is loaded or rendered: refuses files
 * whose object count, decoded stream bytes, image sizes or resource nesting would keep MuPDF
 * busy for minutes or overflow its stack. Messages name the limit and its setting, never content.
 */
import type { mupdf as MuPdf } from './mupdf.js';
import { DocumentError } from '../domain/errors.js';
import { decodedSize, OverBudget, type StreamFilter } from './stream-filters.js';

export interface PdfLimits {
  /** Indirect objects in the file (`PARDA_MAX_PDF_OBJECTS`). */
  readonly maxObjects: number;
  /** Decoded bytes of all non-image streams together (`PARDA_MAX_PDF_STREAM_MB`). */
  readonly maxStreamBytes: number;
  /** Forms, patterns, Type3 fonts and appearances nested in one another (`PARDA_MAX_PDF_NESTING`). */
  readonly maxNesting: number;
  /** Pixels of one image XObject (`PARDA_MAX_IMAGE_MEGAPIXELS`). */
  readonly maxImagePixels: number;
}

/** The settings' defaults, for callers that do not pass their own. */
export const DEFAULT_PDF_LIMITS: PdfLimits = {
  maxObjects: 500_000,
  maxStreamBytes: 256 * 1024 * 1024,
  maxNesting: 12,
  maxImagePixels: 60_000_000,
};

/** Objects the nesting walk may visit: it cannot itself become the slow part. */
const MAX_WALK_VISITS = 200_000;

function megabytes(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}

function checkObjectCount(pdf: MuPdf.PDFDocument, limits: PdfLimits): number {
  const count = pdf.countObjects();
  if (count - 1 > limits.maxObjects) {
    throw new DocumentError(
      'too_many_objects',
      `The PDF has ${count - 1} objects; at most ${limits.maxObjects} are accepted ` +
        '(PARDA_MAX_PDF_OBJECTS).',
    );
  }
  return count;
}

function filtersOf(stream: MuPdf.PDFObject): StreamFilter[] {
  const filter = stream.get('Filter');
  const parms = stream.get('DecodeParms');
  const entries = filter.isArray() ? Array.from({ length: filter.length }, (_, i) => i) : [null];
  return entries.flatMap((i) => {
    const name = (i === null ? filter : filter.get(i)).asName();
    if (name === '') return [];
    const parm = i === null ? parms : parms.isArray() ? parms.get(i) : parms;
    const early = parm.isDictionary() ? parm.get('EarlyChange') : null;
    return [early?.isNumber() ? { name, earlyChange: early.asNumber() } : { name }];
  });
}

function checkImage(stream: MuPdf.PDFObject, limits: PdfLimits): void {
  const width = stream.get('Width').asNumber();
  const height = stream.get('Height').asNumber();
  if (width * height > limits.maxImagePixels) {
    throw new DocumentError(
      'image_too_large',
      `An image of ${width}x${height} pixels in the PDF exceeds the limit of ` +
        `${limits.maxImagePixels / 1_000_000} megapixels (PARDA_MAX_IMAGE_MEGAPIXELS).`,
    );
  }
}

/**
 * Every stream of the file, reachable or not (simplest and safe): images are held to the pixel
 * limit (MuPDF decodes them only up to their declared size), other streams are decoded here
 * under what is left of the byte budget.
 */
function checkStreams(pdf: MuPdf.PDFDocument, count: number, limits: PdfLimits): void {
  let left = limits.maxStreamBytes;
  for (let num = 1; num < count; num += 1) {
    const object = pdf.newIndirect(num);
    try {
      if (!object.isStream()) continue;
      if (object.get('Subtype').asName() === 'Image') {
        checkImage(object, limits);
        continue;
      }
      const raw = object.readRawStream();
      try {
        left -= decodedSize(raw.asUint8Array(), filtersOf(object), left);
      } finally {
        raw.destroy();
      }
    } catch (error) {
      if (error instanceof OverBudget) {
        throw new DocumentError(
          'content_too_large',
          `The PDF's content decompresses to more than ${megabytes(limits.maxStreamBytes)} MB ` +
            '(PARDA_MAX_PDF_STREAM_MB).',
        );
      }
      if (error instanceof DocumentError) throw error;
      // An object MuPDF cannot parse is one it will not draw either.
    } finally {
      object.destroy();
    }
  }
}

function tooDeep(limits: PdfLimits, why: string): DocumentError {
  return new DocumentError(
    'nesting_too_deep',
    `The PDF's ${why}; at most ${limits.maxNesting} levels are accepted (PARDA_MAX_PDF_NESTING).`,
  );
}

/**
 * Depth-first walk from each page through the objects that carry their own content and
 * resources: form XObjects, tiling patterns, Type3 fonts, soft-mask groups and annotation
 * appearances. Indirect objects are identified by number: one seen again on the current path
 * is a cycle (the self-referencing pattern that overflows MuPDF's stack); one already explored
 * is not walked again, only its recorded height is reused, so shared resources cost once.
 */
class NestingWalk {
  private readonly onPath = new Set<number>();
  private readonly heights = new Map<number, number>();
  private visits = 0;

  constructor(private readonly limits: PdfLimits) {}

  /** Height (content levels) below and including `object`, entered at `depth`. */
  private enter(
    object: MuPdf.PDFObject,
    depth: number,
    carriesContent: boolean,
    children: (depth: number) => number,
  ): number {
    const num = object.isIndirect() ? object.asIndirect() : 0;
    if (num !== 0) {
      if (this.onPath.has(num)) throw tooDeep(this.limits, 'resources refer back to themselves');
      const known = this.heights.get(num);
      if (known !== undefined) {
        if (depth + known > this.limits.maxNesting)
          throw tooDeep(this.limits, 'content nests too deep');
        return known;
      }
    }
    this.visits += 1;
    if (this.visits > MAX_WALK_VISITS) throw tooDeep(this.limits, 'resources are too intricate');
    const own = carriesContent ? 1 : 0;
    if (depth + own > this.limits.maxNesting) throw tooDeep(this.limits, 'content nests too deep');
    if (num !== 0) this.onPath.add(num);
    const height = own + children(depth + own);
    if (num !== 0) {
      this.onPath.delete(num);
      this.heights.set(num, height);
    }
    return height;
  }

  private each(
    container: MuPdf.PDFObject,
    depth: number,
    visit: (value: MuPdf.PDFObject) => number,
  ): number {
    if (!container.isDictionary() && !container.isArray()) return 0;
    return this.enter(container, depth, false, () => {
      let height = 0;
      container.forEach((value) => {
        height = Math.max(height, visit(value));
      });
      return height;
    });
  }

  private content(object: MuPdf.PDFObject, depth: number): number {
    return this.enter(object, depth, true, (inner) =>
      this.resources(object.get('Resources'), inner),
    );
  }

  private resources(resources: MuPdf.PDFObject, depth: number): number {
    if (!resources.isDictionary()) return 0;
    return this.enter(resources, depth, false, (inner) =>
      Math.max(
        this.each(resources.get('XObject'), inner, (x) =>
          x.get('Subtype').asName() === 'Form' ? this.content(x, inner) : 0,
        ),
        this.each(resources.get('Pattern'), inner, (p) =>
          p.get('PatternType').asNumber() === 1 ? this.content(p, inner) : 0,
        ),
        this.each(resources.get('Font'), inner, (f) =>
          f.get('Subtype').asName() === 'Type3' ? this.content(f, inner) : 0,
        ),
        this.each(resources.get('ExtGState'), inner, (gs) => {
          const group = gs.get('SMask', 'G');
          return group.isStream() ? this.content(group, inner) : 0;
        }),
      ),
    );
  }

  private appearances(annotation: MuPdf.PDFObject, depth: number): number {
    return this.each(annotation.get('AP'), depth, (entry) =>
      entry.isStream()
        ? this.content(entry, depth)
        : this.each(entry, depth, (state) => (state.isStream() ? this.content(state, depth) : 0)),
    );
  }

  page(page: MuPdf.PDFObject): void {
    this.resources(page.getInheritable('Resources'), 0);
    this.each(page.get('Annots'), 0, (annotation) => this.appearances(annotation, 0));
  }
}

/** Runs every check; throws the first `DocumentError` met. */
export function checkPdfStructure(pdf: MuPdf.PDFDocument, limits: PdfLimits, pages: number): void {
  const count = checkObjectCount(pdf, limits);
  checkStreams(pdf, count, limits);
  const walk = new NestingWalk(limits);
  for (let index = 0; index < pages; index += 1) walk.page(pdf.findPage(index));
}
