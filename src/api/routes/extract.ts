/**
 * POST /api/v1/extract-aadhaar and /api/v1/extract-pan: card fields as JSON, with
 * X-Extracted-Fields. Charged one document when a card was found; a document that holds no
 * card of the kind is 422 `no_document_detected` and not charged.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { extractedFieldCount } from '../../services/extract-aadhaar.js';
import type { RouteKit } from '../route-kit.js';
import { ApiError } from '../errors.js';
import { flag } from '../form-fields.js';
import { propertiesOfType, uploadRouteSchema } from '../route-schemas.js';
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
        ...propertiesOfType(
          ['string', 'null'],
          ['name', 'aadhaar_number', 'aadhaar_last4', 'date_of_birth'],
        ),
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
      properties: propertiesOfType(
        ['string', 'null'],
        ['pan', 'name', 'father_name', 'date_of_birth', 'holder_type'],
      ),
    },
    format_valid: { type: 'boolean' },
    warnings: { type: 'array', items: { type: 'string' } },
    confidence: confidenceSchema,
  },
};

type DocumentForm = Awaited<ReturnType<typeof readDocumentForm>>;

/** What sets one card kind's endpoint apart; the rest is the same for every kind. */
interface CardExtraction {
  readonly url: string;
  readonly summary: string;
  readonly description: string;
  readonly response: object;
  /** The form's text parts besides `file` and `pdf_password`. */
  readonly formFields: readonly string[];
  extract(form: DocumentForm, request: FastifyRequest): Promise<{ readonly fields: object }>;
}

/** A card kind's endpoint: one document required up front, charged once the card is read. */
function addExtractionRoute(app: FastifyInstance, kit: RouteKit, card: CardExtraction): void {
  app.post(
    card.url,
    {
      schema: uploadRouteSchema({
        tag: 'extraction',
        summary: card.summary,
        description: card.description,
        ok: {
          description: 'The fields read, with X-Extracted-Fields',
          content: { 'application/json': { schema: card.response } },
          headers: { 'X-Extracted-Fields': { schema: { type: 'integer' } } },
        },
      }),
    },
    async (request, reply) => {
      await kit.metering.require(request, 1);
      const form = await readDocumentForm(request, kit.settings.maxUploadBytes, card.formFields);
      const result = await card.extract(form, request);
      await kit.metering.charge(request, 1);
      return reply
        .header('X-Extracted-Fields', String(extractedFieldCount(result.fields)))
        .send(result);
    },
  );
}

export const extractRoutes: FastifyPluginAsync<RouteKit> = async (app, kit) => {
  addExtractionRoute(app, kit, {
    url: '/api/v1/extract-aadhaar',
    summary: 'Extract the fields of an Aadhaar card',
    description:
      'multipart/form-data: `file` (JPEG, PNG or PDF, required); `include_confidence` (boolean, default false); ' +
      '`reveal_aadhaar_number` (boolean, default false: only for a key with the reveal entitlement, otherwise 403 ' +
      '`reveal_not_entitled`); `pdf_password`.',
    response: aadhaarResponse,
    formFields: ['include_confidence', 'reveal_aadhaar_number'],
    extract: (form, request) => {
      const reveal = flag(form.fields, 'reveal_aadhaar_number', false);
      // Refused before any work: the number is never silently masked instead.
      if (reveal && !request.account?.key.revealEntitled) {
        throw new ApiError(
          'reveal_not_entitled',
          'This API key is not entitled to reveal full Aadhaar numbers; omit reveal_aadhaar_number.',
        );
      }
      return kit.documents.extractAadhaar(form.upload, {
        includeConfidence: flag(form.fields, 'include_confidence', false),
        reveal,
      });
    },
  });

  addExtractionRoute(app, kit, {
    url: '/api/v1/extract-pan',
    summary: 'Extract the fields of a PAN card',
    description:
      'multipart/form-data: `file` (JPEG, PNG or PDF, required); `include_confidence` (boolean, default false); `pdf_password`.',
    response: panResponse,
    formFields: ['include_confidence'],
    extract: (form) =>
      kit.documents.extractPan(form.upload, {
        includeConfidence: flag(form.fields, 'include_confidence', false),
      }),
  });
  return Promise.resolve();
};
