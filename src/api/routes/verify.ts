/**
 * POST /api/v1/verify-document: an Aadhaar card checked against the data UIDAI signed into its
 * Secure QR. JSON only (the verdict, checks and signals); no name, date or number is returned.
 * Charged one document when an Aadhaar card was found; a document without one is 422
 * `no_document_detected` and not charged.
 */
import type { FastifyPluginAsync } from 'fastify';
import { MIN_PIXELS_PER_MODULE } from '../../services/verify-document.js';
import type { RouteKit } from '../route-kit.js';
import { PDF_PASSWORD_PART, uploadRouteSchema } from '../route-schemas.js';
import { readDocumentForm } from '../uploads.js';

const verificationResponse = {
  type: 'object',
  properties: {
    verdict: { type: 'string', enum: ['pass', 'review', 'fail'] },
    rationale: { type: 'string' },
    qr: {
      type: 'object',
      properties: {
        status: {
          type: 'string',
          enum: [
            'decoded',
            'not_found',
            'unreadable',
            'unsigned_xml',
            'unsupported_format',
            'invalid_payload',
          ],
        },
        payload_version: { type: ['string', 'null'] },
        pixels_per_module: {
          type: ['number', 'null'],
          description:
            'How finely the QR was imaged; below min_pixels_per_module, photograph it closer',
        },
        min_pixels_per_module: { type: 'number', enum: [MIN_PIXELS_PER_MODULE] },
      },
    },
    signature: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['valid', 'not_verified'] },
        reason: {
          type: 'string',
          enum: ['no_certificates', 'signature_mismatch', 'qr_not_decoded'],
        },
        certificate_sha256: { type: 'string' },
      },
    },
    checks_performed: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, result: { type: 'boolean' } },
      },
    },
    signals: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          severity: { type: 'string', enum: ['high', 'medium', 'low'] },
          detail: { type: 'string' },
        },
      },
    },
  },
};

export const verifyRoutes: FastifyPluginAsync<RouteKit> = async (app, kit) => {
  app.post(
    '/api/v1/verify-document',
    {
      schema: uploadRouteSchema({
        tag: 'verification',
        summary: 'Verify an Aadhaar card against its signed Secure QR',
        description:
          'Returns the verdict, the checks performed and the signals found; never a name, a ' +
          'date or a number.',
        form: {
          document: 'file',
          formats: 'JPEG, PNG or PDF',
          parts: { pdf_password: PDF_PASSWORD_PART },
        },
        ok: {
          description: 'The verification report',
          content: { 'application/json': { schema: verificationResponse } },
        },
      }),
    },
    async (request, reply) => {
      await kit.metering.require(request, 1);
      const { upload } = await readDocumentForm(request, kit.settings.maxUploadBytes);
      const report = await kit.documents.verify(upload, {});
      await kit.metering.charge(request, 1);
      return reply.send(report);
    },
  );
  return Promise.resolve();
};
