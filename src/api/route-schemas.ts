/** Builders for the parts of route schemas (OpenAPI and response serialisation) that recur. */
import type { OptionField, OptionFields } from '../services/endpoints/file-endpoint.js';

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** `{name: {type}}` for each name, in order: the properties of an object whose fields share one type. */
export function propertiesOfType(
  type: JsonType | readonly JsonType[],
  names: readonly string[],
): Record<string, { type: JsonType | JsonType[] }> {
  return Object.fromEntries(
    names.map((name) => [name, { type: typeof type === 'string' ? type : [...type] }]),
  );
}

const BINARY = { schema: { type: 'string', format: 'binary' } } as const;

/** A document written by the Indian endpoints: the format of the input, or the one asked for. */
export const DOCUMENT_CONTENT = {
  'image/jpeg': BINARY,
  'image/png': BINARY,
  'application/pdf': BINARY,
} as const;

/** What global redaction writes: the input's format (a BMP comes back as PNG). */
export const GLOBAL_DOCUMENT_CONTENT = {
  ...DOCUMENT_CONTENT,
  'image/webp': BINARY,
  'image/tiff': BINARY,
} as const;

/** One text part of a multipart form: its JSON schema and what it means. */
export interface FormPart {
  readonly schema: Readonly<Record<string, unknown>>;
  readonly description: string;
}

/**
 * The parts of an upload form: the document part (`file`, or `files` repeated for a batch),
 * the formats it takes, and the text parts. Documented as the route's multipart `requestBody`
 * (documentation.ts); the route itself reads the form with uploads.ts.
 */
export interface UploadForm {
  readonly document: 'file' | 'files';
  readonly formats: string;
  readonly parts: Readonly<Record<string, FormPart>>;
}

/** A descriptor's option field (services/endpoints) as the JSON schema of its form part. */
export function fieldSchema(field: OptionField): Readonly<Record<string, unknown>> {
  switch (field.type) {
    case 'boolean':
      return { type: 'boolean', default: field.default };
    case 'integer':
      return {
        type: 'integer',
        minimum: field.minimum,
        maximum: field.maximum,
        default: field.default,
      };
    default:
      // A list is free text the service checks; OpenAPI's `format` is open to any name.
      return 'enum' in field
        ? { type: 'string', enum: [...field.enum], default: field.default }
        : { type: 'string', format: field.format };
  }
}

/** The descriptor's fields as form parts, each with what it means on this route. */
export function fieldParts<F extends OptionFields>(
  fields: F,
  descriptions: { readonly [K in keyof F]: string },
): Record<keyof F & string, FormPart> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [
      name,
      { schema: fieldSchema(field), description: descriptions[name] ?? '' },
    ]),
  ) as Record<keyof F & string, FormPart>;
}

export const PDF_PASSWORD_PART: FormPart = {
  schema: { type: 'string', format: 'password' },
  description:
    'The password of a password-protected PDF; used to open it for this request only, never stored or logged.',
};

/** A text part that is `true` or `false` (also `1`/`0`, `yes`/`no`). */
export function flagPart(fallback: boolean, description: string): FormPart {
  return { schema: { type: 'boolean', default: fallback }, description };
}

/** The JSON schema of a multipart form, as OpenAPI describes a `multipart/form-data` body. */
export function multipartSchema(form: UploadForm): Record<string, unknown> {
  const document = { type: 'string', format: 'binary' };
  return {
    type: 'object',
    required: [form.document],
    properties: {
      [form.document]:
        form.document === 'files'
          ? {
              type: 'array',
              items: document,
              description: `The documents (${form.formats}), one part each.`,
            }
          : { ...document, description: `The document (${form.formats}).` },
      ...Object.fromEntries(
        Object.entries(form.parts).map(([name, part]) => [
          name,
          { ...part.schema, description: part.description },
        ]),
      ),
    },
  };
}

/**
 * The schema of an endpoint that takes a multipart upload under an API key: its form, its
 * success response (`ok`), and the shared error body (errors.ts) for every refusal and failure.
 * `multipartBody` is read by the documentation alone: the form is a stream the route reads
 * itself, never a body Fastify validates.
 */
export function uploadRouteSchema(route: {
  tag: string;
  summary: string;
  description: string;
  form: UploadForm;
  ok: object;
}) {
  return {
    tags: [route.tag],
    summary: route.summary,
    description: route.description,
    multipartBody: multipartSchema(route.form),
    security: [{ ApiKey: [] }],
    response: { 200: route.ok, '4xx': { $ref: 'ErrorBody#' }, '5xx': { $ref: 'ErrorBody#' } },
  };
}
