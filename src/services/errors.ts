/** Errors the services raise for a caller's mistake (the API maps them to 422). */
import { DocumentError, type DocumentErrorCode } from '../domain/errors.js';

/** An option the service cannot do as asked (422 `invalid_request`; the message says why). */
export class InvalidRequestError extends Error {
  override name = 'InvalidRequestError';
}

/** The document holds no card of the kind asked for (422 `no_document_detected`, not charged). */
export class NoDocumentError extends Error {
  override name = 'NoDocumentError';
}

/** A `types` name that is no Indian redaction type (422 `unknown_type`); the message lists the valid ones. */
export class UnknownTypeError extends Error {
  override name = 'UnknownTypeError';
}

/** A request option out of its range or set (422, with the option's own code). */
export class InvalidOptionError extends Error {
  override name = 'InvalidOptionError';
  constructor(
    readonly code: 'invalid_mode' | 'invalid_mask_keep' | 'invalid_country',
    message: string,
  ) {
    super(message);
  }
}

/** Text over the size the text endpoint accepts (413 `text_too_large`). */
export class TextTooLargeError extends Error {
  override name = 'TextTooLargeError';
}

/**
 * The document exhausted what one document may use: its time budget, the memory cap, or
 * MuPDF's own stack (422 `document_too_complex`, not charged). The message names the limit.
 */
export class DocumentTooComplexError extends Error {
  override name = 'DocumentTooComplexError';
}

/** Every document worker is busy and the queue is full (503 `service_unavailable`). */
export class ServiceBusyError extends Error {
  override name = 'ServiceBusyError';
  constructor(
    message: string,
    /** Seconds after which a retry is likely to be served. */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/**
 * The call sites of an error, without its message (which could quote document content): what
 * logs and the document workers' error replies may carry.
 */
export function callSites(error: Error): string[] {
  return (error.stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .map((line) => line.trim())
    .slice(0, 15);
}

/** The code of an error a service raises on purpose: the API's `error`, a CLI manifest's. */
export type ServiceErrorCode =
  | DocumentErrorCode
  | InvalidOptionError['code']
  | 'invalid_request'
  | 'no_document_detected'
  | 'unknown_type'
  | 'text_too_large'
  | 'document_too_complex'
  | 'service_unavailable';

/**
 * The code and message of an error the services or the intake raise on purpose (their messages
 * name limits and options, never document content); null for any other error. The one mapping
 * behind the API's error body and the command line's manifests.
 */
export function serviceFailure(error: unknown): { code: ServiceErrorCode; message: string } | null {
  if (error instanceof DocumentError || error instanceof InvalidOptionError) {
    return { code: error.code, message: error.message };
  }
  const known: readonly [new (...args: never[]) => Error, ServiceErrorCode][] = [
    [InvalidRequestError, 'invalid_request'],
    [NoDocumentError, 'no_document_detected'],
    [UnknownTypeError, 'unknown_type'],
    [TextTooLargeError, 'text_too_large'],
    [DocumentTooComplexError, 'document_too_complex'],
    [ServiceBusyError, 'service_unavailable'],
  ];
  for (const [type, code] of known) {
    if (error instanceof type) return { code, message: error.message };
  }
  return null;
}
