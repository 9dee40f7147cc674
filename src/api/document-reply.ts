/**
 * A single-document route's answer, shared by the masking routes, /redact-pii and
 * /global/redact: the form read against the endpoint descriptor's fields, the service, the
 * route's headers for the result and the file as a download.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  documentsCharged,
  downloadSuffix,
  type FileEndpoint,
  type FileResult,
  type OptionFields,
  type ResultSummary,
} from '../services/endpoints/file-endpoint.js';

/** The response headers that report a result, in the order they are sent (each route's own). */
export type ResultHeaders<R> = (result: R) => readonly (readonly [name: string, value: string])[];
import { contentDisposition, contentType, outputName } from './downloads.js';
import type { RouteKit } from './route-kit.js';
import { readDocumentForm } from './uploads.js';

/** The download's name: the client's file name, suffixed when something was covered. */
export function downloadName(
  endpoint: { readonly suffix: string },
  filename: string,
  result: FileResult,
  summary: ResultSummary,
): string {
  return outputName(filename, result.format, downloadSuffix(endpoint, summary));
}

/** Sets the route's headers for a result. */
/** X-Rasterised-Pages, sent only when a PDF page had to become an image of itself. */
export function rasterisedPagesHeader(pages: readonly number[]): readonly [string, string][] {
  return pages.length > 0 ? [['X-Rasterised-Pages', pages.join(',')]] : [];
}

/** The OpenAPI description of X-Rasterised-Pages. */
export const RASTERISED_PAGES_SCHEMA = {
  type: 'string',
  description:
    'PDF pages (1-based, comma-separated) replaced by a covered image of themselves because a ' +
    "value's text could not be removed from their content stream; absent when none",
} as const;

export function reportHeaders<R>(reply: FastifyReply, headers: ResultHeaders<R>, result: R): void {
  for (const [header, value] of headers(result)) void reply.header(header, value);
}

/** A result as the response: its headers, then the file as a download. */
export function sendDocument<R extends FileResult>(
  reply: FastifyReply,
  endpoint: { readonly suffix: string },
  filename: string,
  result: R,
  summary: ResultSummary,
  headers: ResultHeaders<R>,
) {
  reportHeaders(reply, headers, result);
  return reply
    .header('Content-Type', contentType(result.format))
    .header(
      'Content-Disposition',
      contentDisposition(downloadName(endpoint, filename, result, summary)),
    )
    .send(result.bytes);
}

/**
 * The handler of a single-document route over a descriptor (the masking routes, /redact-pii):
 * the form read against the endpoint's fields, the service, the file back. Charged only when
 * something was covered. /global/redact, which may answer JSON instead, sends with sendDocument.
 */
export function documentHandler<F extends OptionFields, O, R extends FileResult>(
  kit: RouteKit,
  endpoint: FileEndpoint<F, O, R>,
  headers: ResultHeaders<R>,
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await kit.metering.require(request, 1);
    const fields = Object.keys(endpoint.fields);
    const form = await readDocumentForm(request, kit.settings.maxUploadBytes, fields);
    const options = endpoint.parse(form.fields);
    const result = await endpoint.run(kit.documents, form.upload, options);
    const summary = endpoint.summarise(result);
    await kit.metering.charge(request, documentsCharged(summary));
    return sendDocument(reply, endpoint, form.upload.filename, result, summary, headers);
  };
}
