/**
 * Intake: the first step of every file endpoint. Bytes in, a `Document` out, or a
 * `DocumentError` that says precisely what is wrong with the file.
 */
import type { Document, FileFormat } from './document.js';
import { DocumentError } from '../domain/errors.js';
import { decodeImage } from './images.js';
import { openPdf } from './pdf.js';
import { DEFAULT_PDF_LIMITS } from './pdf-limits.js';
import { sniffFormat } from './sniff.js';

/** PDF pre-check limits (see ./pdf-limits.ts); the settings' defaults when absent. */
export interface PdfIntakeLimits {
  readonly maxPdfObjects?: number;
  readonly maxPdfStreamBytes?: number;
  readonly maxPdfNesting?: number;
}

export interface IntakeOptions extends PdfIntakeLimits {
  readonly accepted: ReadonlySet<FileFormat>;
  readonly maxPixels: number;
  readonly maxPages: number;
  readonly pdfPassword?: string;
}

const FORMAT_NAMES: Record<FileFormat, string> = {
  jpeg: 'JPEG',
  png: 'PNG',
  pdf: 'PDF',
  webp: 'WEBP',
  tiff: 'TIFF',
  bmp: 'BMP',
};

export function describeFormats(formats: ReadonlySet<FileFormat>): string {
  return [...formats].map((f) => FORMAT_NAMES[f]).join(', ');
}

export async function intake(
  bytes: Buffer,
  filename: string,
  options: IntakeOptions,
): Promise<Document> {
  if (bytes.length === 0) throw new DocumentError('empty_file', 'The file is empty.');
  const format = sniffFormat(bytes);
  if (format === null || !options.accepted.has(format)) {
    throw new DocumentError(
      'unsupported_file_type',
      `The file is not one of the accepted types (${describeFormats(options.accepted)}).`,
    );
  }
  if (format === 'pdf') {
    const opened = openPdf(bytes, {
      maxPages: options.maxPages,
      limits: {
        maxObjects: options.maxPdfObjects ?? DEFAULT_PDF_LIMITS.maxObjects,
        maxStreamBytes: options.maxPdfStreamBytes ?? DEFAULT_PDF_LIMITS.maxStreamBytes,
        maxNesting: options.maxPdfNesting ?? DEFAULT_PDF_LIMITS.maxNesting,
        maxImagePixels: options.maxPixels,
      },
      ...(options.pdfPassword === undefined ? {} : { password: options.pdfPassword }),
    });
    let disposed = false;
    return {
      filename,
      format,
      bytes,
      pages: opened.pages,
      pdf: opened.pdf,
      dispose() {
        if (!disposed) opened.pdf.destroy();
        disposed = true;
      },
    };
  }
  const pages = await decodeImage(format, bytes, options);
  return { filename, format, bytes, pages, pdf: null, dispose: () => undefined };
}
