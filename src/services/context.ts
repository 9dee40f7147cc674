/** What the services need from the process: limits, engines and the concurrency bound. */
import { loadCertificates, type TrustedCertificate } from '../cards/uidai-certificates.js';
import type { Settings } from '../config/settings.js';
import type { FileFormat } from '../documents/document.js';
import { intake, type PdfIntakeLimits } from '../documents/intake.js';
import type { Document } from '../documents/document.js';
import { timed } from '../domain/stage-times.js';
import type { OcrEngine } from '../ocr/types.js';
import { ocrEngine } from './engines.js';
import { Semaphore } from './semaphore.js';

export interface ServiceContext {
  readonly maxPixels: number;
  readonly maxPages: number;
  readonly pdfLimits: PdfIntakeLimits;
  readonly pdfOcrDpi: number;
  /** Masking reads its output again before it leaves (mask-document.ts). */
  readonly residualCheck: boolean;
  /** Pages of one document the global endpoints OCR at most. */
  readonly maxOcrPages: number;
  readonly bulkConcurrency: number;
  readonly ocr: () => Promise<OcrEngine>;
  /** The certificates trusted to sign Secure QRs, loaded once (a bad file rejects the set). */
  readonly uidaiCertificates: () => Promise<readonly TrustedCertificate[]>;
  /** Bounds the documents processed at once across all requests. */
  readonly slots: Semaphore;
  /** Told the page count once intake has opened a document (the pool scales its budget by it). */
  readonly onIntake?: (pages: number) => void;
}

export function serviceContext(settings: Settings, ocr = ocrEngine): ServiceContext {
  let certificates: Promise<readonly TrustedCertificate[]> | null = null;
  return {
    maxPixels: settings.maxImagePixels,
    maxPages: settings.maxPages,
    pdfLimits: {
      maxPdfObjects: settings.maxPdfObjects,
      maxPdfStreamBytes: settings.maxPdfStreamBytes,
      maxPdfNesting: settings.maxPdfNesting,
    },
    pdfOcrDpi: settings.pdfOcrDpi,
    residualCheck: settings.residualCheck,
    maxOcrPages: settings.maxOcrPages,
    bulkConcurrency: settings.bulkConcurrency,
    ocr,
    uidaiCertificates: () => (certificates ??= loadCertificates(settings.uidaiCertPaths)),
    slots: new Semaphore(settings.maxConcurrentDocuments),
  };
}

export interface UploadedDocument {
  readonly bytes: Buffer;
  readonly filename: string;
  readonly pdfPassword?: string;
}

/**
 * Intake, then `work`, inside a processing slot; the document's native memory is released
 * whatever happens.
 */
export function withDocument<T>(
  context: ServiceContext,
  upload: UploadedDocument,
  accepted: ReadonlySet<FileFormat>,
  work: (document: Document) => Promise<T>,
): Promise<T> {
  return context.slots.run(async () => {
    const document = await timed('intake', () =>
      intake(upload.bytes, upload.filename, {
        accepted,
        maxPixels: context.maxPixels,
        maxPages: context.maxPages,
        ...context.pdfLimits,
        ...(upload.pdfPassword === undefined ? {} : { pdfPassword: upload.pdfPassword }),
      }),
    );
    try {
      context.onIntake?.(document.pages.length);
      return await work(document);
    } finally {
      document.dispose();
    }
  });
}

/** Runs a file service's work on an upload; see `fileService`. */
export type FileService<O, R> = (
  context: ServiceContext,
  upload: UploadedDocument,
  options: O,
) => Promise<R>;

/**
 * A service entry point (file bytes in, result out; used by the API, bulk and the CLI): the
 * OCR engine, intake of the formats it accepts, then `work` on the document in a slot.
 */
export function fileService<O, R>(
  accepted: ReadonlySet<FileFormat>,
  work: (document: Document, options: O, ocr: OcrEngine, context: ServiceContext) => Promise<R>,
): FileService<O, R> {
  return async (context, upload, options) => {
    const ocr = await context.ocr();
    return withDocument(context, upload, accepted, (document) =>
      work(document, options, ocr, context),
    );
  };
}
