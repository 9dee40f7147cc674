/**
 * POST /api/v1/redact-pii: Indian identifiers covered whole in a JPEG, PNG or PDF (a PDF comes
 * back rasterised). `types` selects the identifier types (comma-separated; empty or absent: the
 * types on by default). X-Redacted-Count is the number of merged regions covered; X-Redacted-Types
 * counts detections per type. Nothing found: the same file written anew, count 0, not charged.
 */
import type { FastifyPluginAsync } from 'fastify';
import { REDACT_PII } from '../../services/endpoints/redact-pii.js';
import type { RouteKit } from '../route-kit.js';
import { uploadRouteSchema } from '../route-schemas.js';
import type { RedactResult } from '../../services/redact-pii.js';
import { documentHandler, type ResultHeaders } from '../document-reply.js';

const redactPiiHeaders: ResultHeaders<RedactResult> = (result) => [
  ['X-Redacted-Count', String(result.redactedCount)],
  ['X-Unverified-Count', String(result.unverifiedCount)],
  ['X-Redacted-Types', JSON.stringify(result.typeCounts)],
  ['X-Residual-Check', result.residualCheck],
];

export const redactPiiRoutes: FastifyPluginAsync<RouteKit> = async (app, kit) => {
  app.post(
    '/api/v1/redact-pii',
    {
      schema: uploadRouteSchema({
        tag: 'redaction',
        summary: 'Redact Indian identifiers from a document',
        description:
          'multipart/form-data: `file` (JPEG, PNG or PDF, required); `types` (comma-separated names from ' +
          '/api/v1/pii-types; empty: the types on by default; an unknown name is 422 `unknown_type`); ' +
          '`pdf_password`. Returns the document with every identifier covered whole; a PDF is rasterised.',
        ok: {
          description: 'The redacted document, with X-Redacted-Count and X-Redacted-Types',
          content: {
            'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
          },
          headers: {
            'X-Redacted-Count': { schema: { type: 'integer' } },
            'X-Unverified-Count': {
              schema: { type: 'integer' },
              description:
                'Of the regions, Aadhaar numbers covered although their check digit failed (on an Aadhaar card or letter, or after an Aadhaar label)',
            },
            'X-Redacted-Types': { schema: { type: 'string' } },
            'X-Residual-Check': {
              schema: { type: 'string', enum: ['passed', 'none', 'skipped'] },
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
