/**
 * The one error body of the API, `{error, message, quota?}`, and the mapping of every
 * failure (ours, Fastify's, the multipart parser's, unknown ones) onto it.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { QuotaExceededError } from '../accounts/metering.js';
import type { QuotaSnapshot } from '../accounts/store.js';
import { callSites, serviceFailure, ServiceBusyError } from '../services/errors.js';

/** Every `error` code the API returns, with its HTTP status. Stable: clients branch on them. */
export const ERROR_STATUS = {
  malformed_request: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  subscription_lapsed: 402,
  key_disabled: 403,
  reveal_not_entitled: 403,
  not_found: 404,
  method_not_allowed: 405,
  file_too_large: 413,
  request_too_large: 413,
  text_too_large: 413,
  unsupported_media_type: 415,
  invalid_request: 422,
  missing_file: 422,
  too_many_files: 422,
  unsupported_file_type: 422,
  empty_file: 422,
  corrupt_file: 422,
  truncated_file: 422,
  image_too_large: 422,
  page_too_large: 422,
  too_many_objects: 422,
  content_too_large: 422,
  nesting_too_deep: 422,
  too_many_pages: 422,
  tiff_ifd_loop: 422,
  pdf_encrypted: 422,
  pdf_password_incorrect: 422,
  no_document_detected: 422,
  unknown_type: 422,
  invalid_mode: 422,
  invalid_mask_keep: 422,
  invalid_country: 422,
  document_too_complex: 422,
  residual_check_failed: 422,
  rate_limited: 429,
  quota_exceeded: 429,
  processing_failed: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  quota?: QuotaSnapshot;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { quota?: QuotaSnapshot; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  body(): ErrorBody {
    return this.extra.quota
      ? { error: this.code, message: this.message, quota: this.extra.quota }
      : { error: this.code, message: this.message };
  }
}

/** JSON schema of the error body, shared by every route's OpenAPI description. */
export const errorBodySchema = {
  $id: 'ErrorBody',
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', enum: Object.keys(ERROR_STATUS) },
    message: { type: 'string' },
    quota: {
      type: 'object',
      required: ['limit', 'used', 'remaining'],
      properties: {
        limit: { type: 'integer' },
        used: { type: 'integer' },
        remaining: { type: 'integer' },
      },
    },
  },
} as const;

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/** A body of a type no route takes (a raw image, say): what to send instead. */
const WRONG_BODY_TYPE =
  'This content type is not accepted here. Send a document as multipart/form-data with a ' +
  '"file" part (curl -F file=@card.jpg), and text as application/json.';

/** Fastify's and @fastify/multipart's own error codes, mapped onto ours. */
function fromFrameworkError(error: FastifyError, maxUploadBytes: number): ApiError | null {
  if (error.validation) {
    return new ApiError('invalid_request', `Invalid request: ${error.message}.`);
  }
  switch (error.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new ApiError(
        'file_too_large',
        `The file exceeds the limit of ${megabytes(maxUploadBytes)}.`,
      );
    case 'FST_FILES_LIMIT':
      return new ApiError('too_many_files', 'The request carries more files than allowed.');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ApiError('invalid_request', 'The request carries more form parts than allowed.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ApiError('unsupported_media_type', 'Send the request as multipart/form-data.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', WRONG_BODY_TYPE);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('request_too_large', 'The request body is too large.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('malformed_request', 'The request body is malformed.');
    default:
      break;
  }
  // Body parse failures (bad JSON, broken multipart framing) carry a 400 status.
  if (error.statusCode === 400) {
    return new ApiError('malformed_request', 'The request body could not be parsed.');
  }
  if (error.statusCode === 413) {
    return new ApiError('request_too_large', 'The request body is too large.');
  }
  if (error.statusCode === 415) return new ApiError('unsupported_media_type', WRONG_BODY_TYPE);
  return null;
}

export function toApiError(error: unknown, maxUploadBytes: number): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof ServiceBusyError) {
    return new ApiError('service_unavailable', error.message, {
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    });
  }
  if (error instanceof QuotaExceededError) {
    return new ApiError('quota_exceeded', error.message, { quota: error.quota });
  }
  const failure = serviceFailure(error);
  if (failure) return new ApiError(failure.code, failure.message);
  if (error instanceof Error && 'code' in error) {
    return fromFrameworkError(error as FastifyError, maxUploadBytes);
  }
  return null;
}

/**
 * What an unexpected error may put in a log line: its class, code and call sites, never its
 * message, which could quote document content.
 */
export function loggableError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const frames = callSites(error);
  const code = (error as { code?: unknown }).code;
  return { type: error.name, ...(typeof code === 'string' ? { code } : {}), frames };
}

/** Refusals an operator should see in the log: the service, not the client, set their limit. */
const LOGGED_REFUSALS: ReadonlySet<ErrorCode> = new Set([
  'document_too_complex',
  'service_unavailable',
]);

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * A form sent to a route whose body is JSON (the text endpoint): the multipart parser leaves no
 * body, and the schema's "body must be object" would not say what went wrong.
 */
function formOnJsonRoute(error: unknown, request: FastifyRequest): ApiError | null {
  const validation = error as { validation?: unknown; validationContext?: string };
  if (!validation.validation || validation.validationContext !== 'body') return null;
  if (!request.isMultipart()) return null;
  return new ApiError(
    'unsupported_media_type',
    'This endpoint takes JSON, not a form: send {"text": "..."} as application/json.',
  );
}

export function installErrorHandling(app: FastifyInstance, maxUploadBytes: number): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = formOnJsonRoute(error, request) ?? toApiError(error, maxUploadBytes);
    if (mapped && LOGGED_REFUSALS.has(mapped.code)) {
      // Our own messages: the limit that was hit, never the document's name or content.
      request.log.warn({ error: mapped.code }, mapped.message);
    }
    if (mapped) {
      for (const [name, value] of Object.entries(mapped.extra.headers ?? {})) {
        void reply.header(name, value);
      }
      return reply.code(mapped.status).send(mapped.body());
    }
    request.log.error({ err: loggableError(error) }, 'request failed unexpectedly');
    const failure = new ApiError(
      'processing_failed',
      'Processing failed unexpectedly; it was not charged and is safe to retry once.',
    );
    return reply.code(failure.status).send(failure.body());
  });

  app.setNotFoundHandler((request, reply) => {
    // A path that exists under other methods: say which (RFC 9110's 405 with Allow).
    const url = request.url.split('?')[0] ?? request.url;
    const allowed = METHODS.filter((method) => app.hasRoute({ method, url }));
    if (allowed.length > 0) {
      const error = new ApiError(
        'method_not_allowed',
        `${request.method} is not served here; use ${allowed.join(' or ')}.`,
      );
      return reply.code(error.status).header('Allow', allowed.join(', ')).send(error.body());
    }
    const error = new ApiError('not_found', 'No such endpoint; see /docs for the API.');
    return reply.code(error.status).send(error.body());
  });
}
