/**
 * POST /api/v1/redact-pii: Indian identifiers covered whole in a JPEG, PNG or PDF (a PDF comes
 * back rasterised). `types` selects the identifier types (comma-separated; empty or absent: the
 * types on by default). X-Redacted-Count is the number of merged regions covered; X-Redacted-Types
 * counts detections per type. Nothing found: the same file written anew, count 0, not charged.
 */
import type { FastifyPluginAsync } from 'fastify';
import { REDACT_PII, REDACT_PII_FIELDS } from '../../services/endpoints/redact-pii.js';
import type { RouteKit } from '../route-kit.js';
import {
  DOCUMENT_CONTENT,
  fieldParts,
  PDF_PASSWORD_PART,
  uploadRouteSchema,
  type UploadForm,
} from '../route-schemas.js';
import type { RedactResult } from '../../services/redact-pii.js';
import { documentHandler, type ResultHeaders } from '../document-reply.js';

const redactPiiHeaders: ResultHeaders<RedactResult> = (result) => [
  ['X-Redacted-Count', String(result.redactedCount)],
  ['X-Unverified-Count', String(result.unverifiedCount)],
  ['X-Redacted-Types', JSON.stringify(result.typeCounts)],
  ['X-Residual-Check', result.residualCheck],
];

/** The /redact-pii form, for one document (`file`) or a batch (`files`, /bulk/anonymise). */
export function redactPiiForm(document: UploadForm['document']): UploadForm {
  return {
    document,
    formats: 'JPEG, PNG or PDF',
    parts: {
      ...fieldParts(REDACT_PII_FIELDS, {
        types:
          'Comma-separated names from /api/v1/pii-types; empty or absent: the types on by ' +
          'default. An unknown name is refused with 422 `unknown_type`.',
      }),
      pdf_password: PDF_PASSWORD_PART,
    },
  };
}

export const redactPiiRoutes: FastifyPluginAsync<RouteKit> = async (app, kit) => {
  app.post(
    '/api/v1/redact-pii',
    {
      schema: uploadRouteSchema({
        tag: 'redaction',
        summary: 'Redact Indian identifiers from a document',
        description:
          'Returns the document with every identifier covered whole; a PDF is rasterised, so ' +
          'that no text remains under a cover.',
        form: redactPiiForm('file'),
        ok: {
          description: 'The redacted document, with X-Redacted-Count and X-Redacted-Types',
          content: DOCUMENT_CONTENT,
          headers: {
            'X-Redacted-Count': {
              type: 'integer',
              description: 'Regions covered; 0 = nothing found',
            },
            'X-Unverified-Count': {
              type: 'integer',
              description:
                'Of the regions, Aadhaar numbers covered although their check digit failed (on an Aadhaar card or letter, or after an Aadhaar label)',
            },
            'X-Redacted-Types': {
              type: 'string',
              description: 'Detections per type, as a JSON object: `{"aadhaar":1,"pan":2}`',
            },
            'X-Residual-Check': {
              type: 'string',
              enum: ['passed', 'none', 'skipped'],
              description:
                'passed: every covered value was read again in the output (OCR of the covered regions at four rotations) and not found; none: nothing textual was covered; skipped: the check is off (PARDA_RESIDUAL_CHECK=off). A value still readable fails the request with 422 residual_check_failed',
            },
          },
        },
      }),
    },
    documentHandler(kit, REDACT_PII, redactPiiHeaders),
  );
  return Promise.resolve();
};
