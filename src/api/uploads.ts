/**
 * Multipart uploads, streamed into bounded buffers: a file part is read until it ends or
 * passes the upload limit, at which point reading stops with 413 `file_too_large` and the
 * rest of the body is discarded unread into memory.
 */
import type { FastifyRequest } from 'fastify';
import type { UploadedDocument } from '../services/context.js';
import { ApiError } from './errors.js';
import './request-context.js';

export interface UploadedFile {
  /** The client's file name, as sent (never used as a path). */
  readonly filename: string;
  readonly bytes: Buffer;
}

export interface UploadForm {
  readonly files: readonly UploadedFile[];
  readonly fields: ReadonlyMap<string, string>;
}

export interface UploadSpec {
  /** `file` on single-document endpoints, `files` on bulk and batch ones. */
  readonly fileField: 'file' | 'files';
  readonly maxFiles: number;
  /** Text parts the endpoint understands; any other part is refused, so typos surface. */
  readonly fields: readonly string[];
  readonly maxFileBytes: number;
}

const MAX_FIELD_BYTES = 64 * 1024;
const printableName = (name: string) => name.replace(/[^\w.-]/g, '?').slice(0, 40);

export async function readUpload(request: FastifyRequest, spec: UploadSpec): Promise<UploadForm> {
  if (!request.isMultipart()) {
    throw new ApiError(
      'unsupported_media_type',
      `Send the document as multipart/form-data with a "${spec.fileField}" part.`,
    );
  }
  const files: UploadedFile[] = [];
  const fields = new Map<string, string>();
  const parts = request.parts({
    limits: {
      fileSize: spec.maxFileBytes,
      files: spec.maxFiles,
      fields: spec.fields.length + 8,
      fieldSize: MAX_FIELD_BYTES,
      parts: spec.maxFiles + spec.fields.length + 8,
    },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== spec.fileField) {
          throw new ApiError(
            'invalid_request',
            `Unexpected file part "${printableName(part.fieldname)}"; send the document as "${spec.fileField}".`,
          );
        }
        const bytes = await part.toBuffer();
        request.uploadedBytes += bytes.length;
        files.push({ filename: part.filename, bytes });
      } else {
        if (!spec.fields.includes(part.fieldname)) {
          throw new ApiError(
            'invalid_request',
            `Unknown form part "${printableName(part.fieldname)}"; this endpoint accepts ${[spec.fileField, ...spec.fields].join(', ')}.`,
          );
        }
        if (part.valueTruncated || typeof part.value !== 'string') {
          throw new ApiError('invalid_request', `The part "${part.fieldname}" is too long.`);
        }
        if (fields.has(part.fieldname)) {
          throw new ApiError('invalid_request', `The part "${part.fieldname}" was sent twice.`);
        }
        request.uploadedBytes += Buffer.byteLength(part.value);
        fields.set(part.fieldname, part.value);
      }
    }
  } catch (error) {
    // The multipart parser fails with a bare Error when the body does not match its boundary
    // or ends early: the client's mistake, not ours.
    const coded = error instanceof Error && 'code' in error;
    if (
      !(error instanceof ApiError) &&
      !coded &&
      error instanceof Error &&
      /multipart/i.test(error.message)
    ) {
      throw new ApiError('malformed_request', 'The multipart body is malformed or ends early.');
    }
    throw error;
  }
  if (files.length === 0) {
    throw new ApiError('missing_file', `No "${spec.fileField}" part was sent.`);
  }
  return { files, fields };
}

/**
 * The form of a single-document endpoint: one `file`, an optional `pdf_password` and the
 * endpoint's own text parts (`fields`). The file comes back with its password attached.
 */
export async function readDocumentForm(
  request: FastifyRequest,
  maxFileBytes: number,
  fields: readonly string[] = [],
): Promise<{ upload: UploadedDocument; fields: ReadonlyMap<string, string> }> {
  const form = await readUpload(request, {
    fileField: 'file',
    maxFiles: 1,
    fields: [...fields, 'pdf_password'],
    maxFileBytes,
  });
  const [file] = form.files;
  if (!file) throw new Error('readUpload returned no file');
  const password = form.fields.get('pdf_password');
  return {
    upload: password === undefined ? file : { ...file, pdfPassword: password },
    fields: form.fields,
  };
}
