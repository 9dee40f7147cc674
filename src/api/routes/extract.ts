/**
 * POST /api/v1/extract-aadhaar and /api/v1/extract-pan: card fields as JSON, with
 * X-Extracted-Fields. Charged one document when a field was read (X-Extracted-Fields above
 * zero); a document that holds no card of the kind is 422 `no_document_detected` and not
 * charged.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { extractedFieldCount } from '../../services/extract-aadhaar.js';
import type { RouteKit } from '../route-kit.js';
import { ApiError } from '../errors.js';
import { flag } from '../form-fields.js';
import {
  flagPart,
  PDF_PASSWORD_PART,
  propertiesOfType,
  uploadRouteSchema,
  type FormPart,
} from '../route-schemas.js';
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

const INCLUDE_CONFIDENCE = flagPart(
  false,
  'Add `confidence`: per field, how sure the reading is (0-1).',
);

type DocumentForm = Awaited<ReturnType<typeof readDocumentForm>>;

/** What sets one card kind's endpoint apart; the rest is the same for every kind. */
interface CardExtraction {
  readonly url: string;
  readonly summary: string;
  readonly description: string;
  readonly response: object;
  /** The form's text parts besides `file` and `pdf_password`. */
  /** The text parts besides `pdf_password`, with what each means. */
  readonly formParts: Readonly<Record<string, FormPart>>;
  extract(form: DocumentForm, request: FastifyRequest): Promise<{ readonly fields: object }>;
}

/** A card kind's endpoint: one document required up front, charged once a field is read. */
function addExtractionRoute(app: FastifyInstance, kit: RouteKit, card: CardExtraction): void {
  app.post(
    card.url,
    {
      schema: uploadRouteSchema({
        tag: 'extraction',
        summary: card.summary,
        description: card.description,
        form: {
          document: 'file',
          formats: 'JPEG, PNG or PDF',
          parts: { ...card.formParts, pdf_password: PDF_PASSWORD_PART },
        },
        ok: {
          description: 'The fields read, with X-Extracted-Fields',
          content: { 'application/json': { schema: card.response } },
          headers: {
            'X-Extracted-Fields': {
              type: 'integer',
              description: 'Fields read (not null) in `fields`',
            },
          },
        },
      }),
    },
    async (request, reply) => {
      await kit.metering.require(request, 1);
      const form = await readDocumentForm(
        request,
        kit.settings.maxUploadBytes,
        Object.keys(card.formParts),
      );
      const result = await card.extract(form, request);
      // A card recognised but nothing read from it (a Secure QR symbol alone) is not charged.
      const read = extractedFieldCount(result.fields);
      await kit.metering.charge(request, read > 0 ? 1 : 0);
      return reply.header('X-Extracted-Fields', String(read)).send(result);
    },
  );
}

export const extractRoutes: FastifyPluginAsync<RouteKit> = async (app, kit) => {
  addExtractionRoute(app, kit, {
    url: '/api/v1/extract-aadhaar',
    summary: 'Extract the fields of an Aadhaar card',
    description:
      'The card fields as JSON; the number masked unless revealed. A document holding no ' +
      'Aadhaar card is 422 `no_document_detected` and not charged.',
    response: aadhaarResponse,
    formParts: {
      include_confidence: INCLUDE_CONFIDENCE,
      reveal_aadhaar_number: flagPart(
        false,
        'Return the full number in `aadhaar_number`; only for a key entitled to it (else 403 ' +
          '`reveal_not_entitled`, before any work). Without it the number is masked.',
      ),
    },
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
      'The card fields as JSON. A document holding no PAN card is 422 `no_document_detected` ' +
      'and not charged.',
    response: panResponse,
    formParts: { include_confidence: INCLUDE_CONFIDENCE },
    extract: (form) =>
      kit.documents.extractPan(form.upload, {
        includeConfidence: flag(form.fields, 'include_confidence', false),
      }),
  });
  return Promise.resolve();
};
