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

/** Whether any of `removed` (normalised, none empty) is still in the text of `pdf`. */
function textLeft(
  pdf: mupdf.PDFDocument,
  removed: readonly RemovedText[],
  how: TextComparison,
): boolean {
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
  return removed.some(({ page, text }) =>
    (page === null ? everyPage() : page < count ? pageText(page) : '').includes(text),
  );
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

/**
 * Reopens the saved PDF `output` once and throws TextLeftError when a check finds what was
 * removed: in its pages' text, or (`notes`) in its annotations and form fields.
 */
export function assertPdfClean(output: Buffer, checks: CleanChecks): void {
  const { text, notes } = checks;
  const wanted = (text?.removed ?? [])
    .map((r) => ({ page: r.page, text: text?.how.normalise(r.text) ?? '' }))
    .filter((r) => r.text.length > 0);
  if (wanted.length === 0 && !notes) return;
  const opened = mupdf.Document.openDocument(output, 'application/pdf').asPDF();
  if (!opened) throw new Error('the written PDF does not reopen');
  try {
    if (text && wanted.length > 0 && textLeft(opened, wanted, text.how)) {
      throw new TextLeftError();
    }
    if (notes && notesLeft(opened, notes)) throw new TextLeftError('annotations');
  } finally {
    opened.destroy();
  }
}
