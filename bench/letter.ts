/**
 * The benchmarks' letter-like page: 40 lines of prose in 10 pt type with a few identifiers
 * among them (about 3,500 characters), dense as a full page of a letter or statement.
 */
import { mupdf } from '../src/documents/mupdf.js';
import { renderPdfPage } from '../src/documents/render.js';
import type { RasterImage } from '../src/domain/raster.js';
import { pdfWithLines, type PdfLine } from '../test/helpers/fixtures.js';

export function letterPage(n: number): PdfLine[] {
  const lines: PdfLine[] = [];
  for (let i = 0; i < 40; i += 1) {
    const y = 800 - i * 18;
    const text =
      i % 10 === 3
        ? `Customer ${n}-${i}: PAN ACUPA7085R, mobile +91 98765 43210, mail priya.sharma@example.in`
        : i % 10 === 7
          ? `GSTIN 27AAPFU0939F1ZV, IFSC SBIN0000691, Aadhaar 4918 7362 5102, invoice ${n}${i}0042`
          : `Line ${i} of page ${n}: the terms and conditions of the account continue here as plain prose.`;
    lines.push({ text, x: 50, y, size: 10 });
  }
  return lines;
}

/** Letter pages rendered as a scanner would give them, at `dpi`. */
export function scannedLetters(count: number, dpi: number): RasterImage[] {
  const text = mupdf.Document.openDocument(
    pdfWithLines(Array.from({ length: count }, (_, i) => letterPage(i + 1))),
    'application/pdf',
  ).asPDF();
  if (!text) throw new Error('not a PDF');
  const images = Array.from({ length: count }, (_, i) => renderPdfPage(text, i, dpi));
  text.destroy();
  return images;
}
