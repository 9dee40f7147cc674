/**
 * The file services behind the API, as one interface: each takes an upload and its options
 * and returns a plain result. `inProcessServices` runs them on the calling thread (the CLI,
 * tests, and each pool worker); `PooledServices` (pool/) runs them in the document workers.
 */
import type { IndianType } from '../identifiers/in/redact-pii-rules.js';
import type { VerificationReport } from '../cards/verdict.js';
import type { UploadedDocument, ServiceContext } from './context.js';
import { detectGlobalFile, type DetectOptions, type DetectReport } from './detect-global.js';
import {
  extractAadhaarFile,
  type AadhaarExtraction,
  type ExtractOptions,
} from './extract-aadhaar.js';
import { extractPanFile, type PanExtraction } from './extract-pan.js';
import { maskAadhaarFile } from './mask-aadhaar.js';
import type { MaskOptions, MaskResult } from './mask-document.js';
import { maskPanFile } from './mask-pan.js';
import {
  redactGlobalFile,
  type GlobalRedactOptions,
  type GlobalRedactResult,
} from './redact-global.js';
import { redactPiiFile, type RedactResult } from './redact-pii.js';
import { verifyDocumentFile } from './verify-document.js';

export type MaskFileOptions = Omit<MaskOptions, 'pdfDpi' | 'residualCheck'>;
export type DetectFileOptions = Omit<DetectOptions, 'pdfDpi' | 'maxOcrPages'>;

/**
 * One method per file endpoint family. Besides each service's own errors, the pooled
 * implementation may reject with `ServiceBusyError` or `DocumentTooComplexError` (errors.ts).
 */
export interface DocumentServices {
  maskAadhaar(upload: UploadedDocument, options: MaskFileOptions): Promise<MaskResult>;
  maskPan(upload: UploadedDocument, options: MaskFileOptions): Promise<MaskResult>;
  extractAadhaar(upload: UploadedDocument, options: ExtractOptions): Promise<AadhaarExtraction>;
  extractPan(
    upload: UploadedDocument,
    options: { includeConfidence: boolean },
  ): Promise<PanExtraction>;
  verify(upload: UploadedDocument, options: Record<string, never>): Promise<VerificationReport>;
  redactPii(
    upload: UploadedDocument,
    options: { types: readonly IndianType[] },
  ): Promise<RedactResult>;
  detectGlobal(upload: UploadedDocument, options: DetectFileOptions): Promise<DetectReport>;
  redactGlobal(upload: UploadedDocument, options: GlobalRedactOptions): Promise<GlobalRedactResult>;
}

export type ServiceName = keyof DocumentServices;
export type ServiceOptions<K extends ServiceName> = Parameters<DocumentServices[K]>[1];
export type ServiceResult<K extends ServiceName> = Awaited<ReturnType<DocumentServices[K]>>;

export const SERVICE_NAMES: readonly ServiceName[] = [
  'maskAadhaar',
  'maskPan',
  'extractAadhaar',
  'extractPan',
  'verify',
  'redactPii',
  'detectGlobal',
  'redactGlobal',
];

export function inProcessServices(context: ServiceContext): DocumentServices {
  return {
    maskAadhaar: (upload, options) => maskAadhaarFile(context, upload, options),
    maskPan: (upload, options) => maskPanFile(context, upload, options),
    extractAadhaar: (upload, options) => extractAadhaarFile(context, upload, options),
    extractPan: (upload, options) => extractPanFile(context, upload, options.includeConfidence),
    verify: (upload) => verifyDocumentFile(context, upload),
    redactPii: (upload, options) => redactPiiFile(context, upload, options.types),
    detectGlobal: (upload, options) => detectGlobalFile(context, upload, options),
    redactGlobal: (upload, options) => redactGlobalFile(context, upload, options),
  };
}
