/**
 * The write step's proof for PDFs, for every endpoint that keeps a PDF's text: the saved output
 * is reopened, the text of its pages read again line by line, and the document fails when any
 * text that was removed can still be found. A redaction annotation that missed a glyph or a
 * value drawn twice in the content stream ends here as an error, never as a success with the
 * value inside.
 */
import { mupdf } from '../documents/mupdf.js';
import { annotationTexts } from '../documents/pdf-annotations.js';

/** Text that must be gone: from one page (0-based), or from every page (`null`). */
export interface RemovedText {
  readonly page: number | null;
  readonly text: string;
}

export interface TextComparison {
  /** Applied to the removed text and to each line read back (digits only, letters and digits). */
  readonly normalise: (text: string) => string;
  /**
   * What stands between two lines read back: '' so that a value broken over two lines is found
   * whole, a character neither side can hold to keep lines apart.
   */
  readonly joiner: string;
}

export class TextLeftError extends Error {
  constructor(where = 'text') {
    super(`removed text is still in the written PDF's ${where}`);
    this.name = 'TextLeftError';
  }
}

/**
 * The lines of page `index` as MuPDF's plain-text export has them: the same lines the read
 * step's text layer holds, without building a box for every glyph (a 50-page output is read
 * whole, and the glyph walk cost a fifth of a text PDF's redaction).
 */
function plainLines(pdf: mupdf.PDFDocument, index: number): string[] {
  const page = pdf.loadPage(index);
  try {
    const text = page.toStructuredText('preserve-whitespace');
    try {
      return text.asText().split('\n');
    } finally {
      text.destroy();
    }
  } finally {
    page.destroy();
  }
}

/**
 * Where any of `removed` (normalised, none empty) is still in the text of `pdf`: the pages
 * (0-based) that hold one whole, and whether one is found only across a page break.
 */
function textLeft(
  pdf: mupdf.PDFDocument,
  removed: readonly RemovedText[],
  how: TextComparison,
): { readonly pages: readonly number[]; readonly acrossPages: boolean } {
  const count = pdf.countPages();
  const pages = new Map<number, string>();
  const pageText = (index: number): string => {
    let text = pages.get(index);
    if (text === undefined) {
      text = plainLines(pdf, index).map(how.normalise).join(how.joiner);
      pages.set(index, text);
    }
    return text;
  };
  let whole: string | undefined;
  const everyPage = () =>
    (whole ??= Array.from({ length: count }, (_, i) => pageText(i)).join(how.joiner));
  const holding = new Set<number>();
  let acrossPages = false;
  for (const { page, text } of removed) {
    if (page !== null) {
      if (page < count && pageText(page).includes(text)) holding.add(page);
    } else if (everyPage().includes(text)) {
      const on = Array.from({ length: count }, (_, i) => i).filter((i) =>
        pageText(i).includes(text),
      );
      on.forEach((i) => holding.add(i));
      if (on.length === 0) acrossPages = true;
    }
  }
  return { pages: [...holding].sort((a, b) => a - b), acrossPages };
}

/** Whether `holdsValue` finds a value in any annotation's contents or form field's value. */
function notesLeft(pdf: mupdf.PDFDocument, holdsValue: (text: string) => boolean): boolean {
  for (let i = 0; i < pdf.countPages(); i += 1) {
    if (annotationTexts(pdf, i).some(holdsValue)) return true;
  }
  return false;
}

export interface CleanChecks {
  /** Text removed from the pages, and how it is compared with what is read back. */
  readonly text?: { readonly removed: readonly RemovedText[]; readonly how: TextComparison };
  /** Annotation contents and form field values, text that no page's content stream shows. */
  readonly notes?: (text: string) => boolean;
}

/** What a check found left in a saved PDF. */
export interface Leftovers {
  /** Pages (0-based) whose text still holds removed text. */
  readonly pages: readonly number[];
  /** Removed text found only across a page break. */
  readonly acrossPages: boolean;
  /** A value found in an annotation's contents or a form field's value. */
  readonly inNotes: boolean;
}

/** Reopens the saved PDF `output` once and reports where a check finds what was removed. */
export function findLeftovers(output: Buffer, checks: CleanChecks): Leftovers {
  const { text, notes } = checks;
  const wanted = (text?.removed ?? [])
    .map((r) => ({ page: r.page, text: text?.how.normalise(r.text) ?? '' }))
    .filter((r) => r.text.length > 0);
  if (wanted.length === 0 && !notes) return { pages: [], acrossPages: false, inNotes: false };
  const opened = mupdf.Document.openDocument(output, 'application/pdf').asPDF();
  if (!opened) throw new Error('the written PDF does not reopen');
  try {
    const left =
      text && wanted.length > 0 ? textLeft(opened, wanted, text.how) : NOTHING_LEFT_IN_TEXT;
    const inNotes = notes !== undefined && notesLeft(opened, notes);
    return { ...left, inNotes };
  } finally {
    opened.destroy();
  }
}

const NOTHING_LEFT_IN_TEXT = { pages: [], acrossPages: false } as const;

/**
 * Reopens the saved PDF `output` once and throws TextLeftError when a check finds what was
 * removed: in its pages' text, or (`notes`) in its annotations and form fields.
 */
export function assertPdfClean(output: Buffer, checks: CleanChecks): void {
  const left = findLeftovers(output, checks);
  if (left.pages.length > 0 || left.acrossPages) throw new TextLeftError();
  if (left.inNotes) throw new TextLeftError('annotations');
}
