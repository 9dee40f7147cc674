/** Opens PDFs with MuPDF: password handling, page count and page sizes. */
import { mupdf } from './mupdf.js';
import type { PdfPage } from './document.js';
import { DocumentError } from '../domain/errors.js';
import { recordPixelLimit } from './page-area.js';
import { checkPdfStructure, DEFAULT_PDF_LIMITS, type PdfLimits } from './pdf-limits.js';
import { endsCompletely } from './sniff.js';

export interface OpenedPdf {
  readonly pdf: mupdf.PDFDocument;
  readonly pages: PdfPage[];
}

function open(bytes: Buffer): mupdf.PDFDocument {
  let document: mupdf.Document;
  try {
    document = mupdf.Document.openDocument(bytes, 'application/pdf');
  } catch {
    throw new DocumentError('corrupt_file', 'The PDF could not be opened.');
  }
  const pdf = document.asPDF();
  if (!pdf) {
    document.destroy();
    throw new DocumentError('corrupt_file', 'The PDF could not be opened.');
  }
  return pdf;
}

function unlock(pdf: mupdf.PDFDocument, password: string | undefined): void {
  if (!pdf.needsPassword()) return;
  if (password === undefined || password === '') {
    throw new DocumentError(
      'pdf_encrypted',
      'The PDF is password protected; send its password in the pdf_password part.',
    );
  }
  if (pdf.authenticatePassword(password) === 0) {
    throw new DocumentError('pdf_password_incorrect', 'The pdf_password does not open this PDF.');
  }
}

export function openPdf(
  bytes: Buffer,
  options: { password?: string; maxPages: number; limits?: PdfLimits },
): OpenedPdf {
  const limits = options.limits ?? DEFAULT_PDF_LIMITS;
  // MuPDF quietly rebuilds a cut-off file and drops what was lost; we refuse it instead,
  // so that no page goes unprocessed.
  if (!endsCompletely('pdf', bytes)) {
    throw new DocumentError('truncated_file', 'The PDF ends without %%EOF; it looks truncated.');
  }
  const pdf = open(bytes);
  try {
    unlock(pdf, options.password);
    let count: number;
    try {
      count = pdf.countPages();
    } catch {
      throw new DocumentError('corrupt_file', 'The PDF page tree could not be read.');
    }
    if (count === 0) throw new DocumentError('corrupt_file', 'The PDF has no pages.');
    if (count > options.maxPages) {
      throw new DocumentError(
        'too_many_pages',
        `The PDF has ${count} pages; at most ${options.maxPages} are accepted.`,
      );
    }
    // Before any page is loaded: loading and drawing are where a bomb goes off.
    checkPdfStructure(pdf, limits, count);
    recordPixelLimit(pdf, limits.maxImagePixels);
    const pages: PdfPage[] = [];
    for (let index = 0; index < count; index += 1) {
      let page: mupdf.PDFPage | undefined;
      try {
        page = pdf.loadPage(index);
        const [x0, y0, x1, y1] = page.getBounds();
        pages.push({ kind: 'pdf', index, width: x1 - x0, height: y1 - y0 });
      } catch {
        throw new DocumentError('corrupt_file', `Page ${index + 1} of the PDF could not be read.`);
      } finally {
        page?.destroy();
      }
    }
    return { pdf, pages };
  } catch (error) {
    pdf.destroy();
    throw error;
  }
}
