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

/** Throws TextLeftError when any of `removed` is still in the text of the saved PDF `output`. */
export function assertTextGone(
  output: Buffer,
  removed: readonly RemovedText[],
  how: TextComparison,
): void {
  const wanted = removed.map((r) => ({ page: r.page, text: how.normalise(r.text) }));
  if (!wanted.some((r) => r.text.length > 0)) return;
  const opened = mupdf.Document.openDocument(output, 'application/pdf').asPDF();
  if (!opened) throw new Error('the written PDF does not reopen');
  try {
    const count = opened.countPages();
    const pages = new Map<number, string>();
    const pageText = (index: number): string => {
      let text = pages.get(index);
      if (text === undefined) {
        text = plainLines(opened, index).map(how.normalise).join(how.joiner);
        pages.set(index, text);
      }
      return text;
    };
    let whole: string | undefined;
    const everyPage = () =>
      (whole ??= Array.from({ length: count }, (_, i) => pageText(i)).join(how.joiner));
    for (const { page, text } of wanted) {
      if (text.length === 0) continue;
      const where = page === null ? everyPage() : page < count ? pageText(page) : '';
      if (where.includes(text)) throw new TextLeftError();
    }
  } finally {
    opened.destroy();
  }
}

/**
 * Throws TextLeftError when `holdsValue` finds a value in any annotation's contents or form
 * field's value of the saved PDF `output`: text that no page's content stream shows.
 */
export function assertNotesClean(output: Buffer, holdsValue: (text: string) => boolean): void {
  const opened = mupdf.Document.openDocument(output, 'application/pdf').asPDF();
  if (!opened) throw new Error('the written PDF does not reopen');
  try {
    for (let i = 0; i < opened.countPages(); i += 1) {
      if (annotationTexts(opened, i).some(holdsValue)) throw new TextLeftError('annotations');
    }
  } finally {
    opened.destroy();
  }
}
