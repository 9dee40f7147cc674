/**
 * POST /api/v1/global/detect: the global detect report for a PDF, PNG, JPEG, WEBP, TIFF (every
 * frame) or BMP; the file is not changed. Parts: `file`, `entity_types`, `countries`,
 * `pdf_password`. Charged one document only when something was found; X-Entities-Found.
 */
import type { FastifyPluginAsync } from 'fastify';
import { resolveCountries, resolveEntityTypes } from '../../services/global-options.js';
import type { RouteKit } from '../route-kit.js';
import {
  fieldSchema,
  PDF_PASSWORD_PART,
  uploadRouteSchema,
  type FormPart,
} from '../route-schemas.js';
import { GLOBAL_REDACT_FIELDS } from '../../services/endpoints/global-redact.js';
import { readDocumentForm } from '../uploads.js';

const preview = { type: 'string', description: 'Mostly asterisks; never the value' };

const reportSchema = {
  type: 'object',
  required: ['entities', 'rejected_candidates', 'summary', 'file_type', 'metadata_present'],
  properties: {
    entities: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          type: { type: 'string' },
          value_preview: preview,
          page: { type: 'integer', description: '1-based' },
          confidence: { type: 'number' },
          validated: { type: 'boolean' },
          validation: { type: 'string', description: 'The rule that validated the value' },
        },
      },
    },
    rejected_candidates: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          type: { type: 'string' },
          reason: { type: 'string' },
          value_preview: preview,
          page: { type: 'integer' },
        },
      },
    },
    summary: { type: 'object', additionalProperties: { type: 'integer' } },
    file_type: { type: 'string', enum: ['PDF', 'PNG', 'JPEG', 'WEBP', 'TIFF', 'BMP'] },
    pages: { type: 'integer' },
    metadata_present: { type: 'array', items: { type: 'string' } },
    ocr: {
      type: 'object',
      properties: {
        pages: { type: 'array', items: { type: 'integer' } },
        confidence: { type: ['number', 'null'] },
        per_page: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              page: { type: 'integer' },
              confidence: { type: ['number', 'null'] },
              lines: { type: 'integer' },
            },
          },
        },
        skipped_pages: { type: 'array', items: { type: 'integer' } },
        page_limit: { type: 'integer' },
      },
    },
    quota: {
      type: 'object',
      properties: { used: { type: 'string' }, remaining: { type: 'string' } },
    },
  },
} as const;

/** The formats the global endpoints read. */
export const GLOBAL_FORMATS_TEXT = 'PDF, PNG, JPEG, WEBP, TIFF or BMP';

/** The choice of types and countries, shared by detection and redaction. */
export const GLOBAL_CHOICE_PARTS: Readonly<Record<string, FormPart>> = {
  entity_types: {
    schema: fieldSchema(GLOBAL_REDACT_FIELDS.entity_types),
    description:
      'Comma-separated names from /api/v1/global/entity-types; empty or absent: the types on ' +
      'by default. An unknown name is refused with 422 `unknown_type`.',
  },
  countries: {
    schema: fieldSchema(GLOBAL_REDACT_FIELDS.countries),
    description:
      'Comma-separated ISO 3166-1 alpha-2 codes (`IN,GB`) limiting the country-specific types; ' +
      'empty or absent: every country. An unknown code is 422 `invalid_country`.',
  },
};

export const globalDetectRoutes: FastifyPluginAsync<RouteKit> = async (app, kit) => {
  app.post(
    '/api/v1/global/detect',
    {
      schema: uploadRouteSchema({
        tag: 'global',
        summary: 'Report the global identifiers in a document, changing nothing',
        form: {
          document: 'file',
          formats: GLOBAL_FORMATS_TEXT,
          parts: { ...GLOBAL_CHOICE_PARTS, pdf_password: PDF_PASSWORD_PART },
        },
        description:
          "The entities found and the candidates refused, with previews only. Scanned pages are OCR'd, at most " +
          'PARDA_MAX_OCR_PAGES (30) per document; the `ocr` block lists the pages read, their ' +
          'confidence and the pages skipped.',
        ok: { ...reportSchema, description: 'The report; X-Entities-Found: values found' },
      }),
    },
    async (request, reply) => {
      await kit.metering.require(request, 1);
      const form = await readDocumentForm(request, kit.settings.maxUploadBytes, [
        'entity_types',
        'countries',
      ]);
      const countries = resolveCountries(form.fields.get('countries'));
      const rules = resolveEntityTypes(form.fields.get('entity_types'), countries);
      const report = await kit.documents.detectGlobal(form.upload, { rules, countries });
      await kit.metering.charge(request, report.entities.length > 0 ? 1 : 0);
      const quota = request.account?.quota;
      return reply.header('X-Entities-Found', String(report.entities.length)).send({
        ...report,
        ...(quota
          ? { quota: { used: String(quota.used), remaining: String(quota.remaining) } }
          : {}),
      });
    },
  );
  return Promise.resolve();
};
