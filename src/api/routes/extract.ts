/**
 * POST /api/v1/extract-aadhaar and /api/v1/extract-pan: card fields as JSON, with
 * X-Extracted-Fields. Charged one document when a card was found; a document that holds no
 * card of the kind is 422 `no_document_detected` and not charged.
 */
import type { FastifyPluginAsync } from 'fastify';
import { extractedFieldCount } from '../../services/extract-aadhaar.js';
import type { RouteKit } from '../route-kit.js';
import { ApiError } from '../errors.js';
import { flag } from '../form-fields.js';
import { readDocumentForm } from '../uploads.js';

const confidenceSchema = {
  type: 'object',
  description:
    'Per field, 0-1: mean confidence of the characters read; 1 when the signed QR confirms the value; null for a null field',
  additionalProperties: { type: ['number', 'null'] },
};

const aadhaarResponse = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    document_type: { type: 'string', enum: ['aadhaar'] },
    sides_detected: { type: 'array', items: { type: 'string', enum: ['front', 'back'] } },
    fields: {
      type: 'object',
      properties: {
        name: { type: ['string', 'null'] },
        aadhaar_number: { type: ['string', 'null'] },
        aadhaar_last4: { type: ['string', 'null'] },
        date_of_birth: { type: ['string', 'null'] },
        year_of_birth: { type: ['integer', 'null'] },
        gender: { type: ['string', 'null'], enum: ['M', 'F', 'T', null] },
        care_of: { type: ['string', 'null'] },
        address: {
          type: ['object', 'null'],
          properties: { full: { type: 'string' }, pincode: { type: ['string', 'null'] } },
        },
        vid_detected: { type: 'boolean' },
      },
    },
    checksum_valid: { type: 'boolean' },
    warnings: { type: 'array', items: { type: 'string' } },
    confidence: confidenceSchema,
  },
};

const panResponse = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    document_type: { type: 'string', enum: ['pan'] },
    fields: {
      type: 'object',
      properties: {
        pan: { type: ['string', 'null'] },
        name: { type: ['string', 'null'] },
        father_name: { type: ['string', 'null'] },
        date_of_birth: { type: ['string', 'null'] },
        holder_type: { type: ['string', 'null'] },
      },
    },
    format_valid: { type: 'boolean' },
    warnings: { type: 'array', items: { type: 'string' } },
    confidence: confidenceSchema,
  },
};

function schemaOf(summary: string, description: string, body: object) {
  return {
    tags: ['extraction'],
    summary,
    description,
    consumes: ['multipart/form-data'],
    security: [{ ApiKey: [] }],
    response: {
      200: {
        description: 'The fields read, with X-Extracted-Fields',
        content: { 'application/json': { schema: body } },
        headers: { 'X-Extracted-Fields': { schema: { type: 'integer' } } },
      },
      '4xx': { $ref: 'ErrorBody#' },
      '5xx': { $ref: 'ErrorBody#' },
    },
  };
}

export const extractRoutes: FastifyPluginAsync<RouteKit> = async (app, kit) => {
  app.post(
    '/api/v1/extract-aadhaar',
    {
      schema: schemaOf(
        'Extract the fields of an Aadhaar card',
        'multipart/form-data: `file` (JPEG, PNG or PDF, required); `include_confidence` (boolean, default false); ' +
          '`reveal_aadhaar_number` (boolean, default false: only for a key with the reveal entitlement, otherwise 403 ' +
          '`reveal_not_entitled`); `pdf_password`.',
        aadhaarResponse,
      ),
    },
    async (request, reply) => {
      await kit.metering.require(request, 1);
      const form = await readDocumentForm(request, kit.settings.maxUploadBytes, [
        'include_confidence',
        'reveal_aadhaar_number',
      ]);
      const reveal = flag(form.fields, 'reveal_aadhaar_number', false);
      // Refused before any work: the number is never silently masked instead.
      if (reveal && !request.account?.key.revealEntitled) {
        throw new ApiError(
          'reveal_not_entitled',
          'This API key is not entitled to reveal full Aadhaar numbers; omit reveal_aadhaar_number.',
        );
      }
      const result = await kit.documents.extractAadhaar(form.upload, {
        includeConfidence: flag(form.fields, 'include_confidence', false),
        reveal,
      });
      await kit.metering.charge(request, 1);
      return reply
        .header('X-Extracted-Fields', String(extractedFieldCount(result.fields)))
        .send(result);
    },
  );

  app.post(
    '/api/v1/extract-pan',
    {
      schema: schemaOf(
        'Extract the fields of a PAN card',
        'multipart/form-data: `file` (JPEG, PNG or PDF, required); `include_confidence` (boolean, default false); `pdf_password`.',
        panResponse,
      ),
    },
    async (request, reply) => {
      await kit.metering.require(request, 1);
      const form = await readDocumentForm(request, kit.settings.maxUploadBytes, [
        'include_confidence',
      ]);
      const result = await kit.documents.extractPan(form.upload, {
        includeConfidence: flag(form.fields, 'include_confidence', false),
      });
      await kit.metering.charge(request, 1);
      return reply
        .header('X-Extracted-Fields', String(extractedFieldCount(result.fields)))
        .send(result);
    },
  );
  return Promise.resolve();
};
