/**
 * POST /api/v1/global/redact/text: global identifiers replaced in plain text sent as JSON.
 * Options (README "Redacting text"): `mode` (token, the default; mask; pseudonym; box),
 * `entity_types`, `countries` (a comma-separated string or an array), `mask_keep` (0-8).
 * Returns the redacted text and a report of types, spans and rules, never values;
 * X-Entities-Found counts the values replaced. Charged one document when something was found.
 */
import type { FastifyPluginAsync } from 'fastify';
import {
  resolveCountries,
  resolveEntityTypes,
  resolveMaskKeep,
  resolveMode,
  type ListOption,
} from '../../services/global-options.js';
import { redactText, TEXT_MODES } from '../../services/redact-text.js';
import type { RouteKit } from '../route-kit.js';
import { ApiError } from '../errors.js';
import { installStrictUtf8Json } from '../strict-json.js';

interface TextBody {
  text: string;
  mode?: string;
  entity_types?: ListOption;
  countries?: ListOption;
  mask_keep?: number | string;
}

const listOption = {
  anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
};

const span = {
  type: { type: 'string' },
  start: { type: 'integer', description: 'Offset in Unicode code points of the text sent' },
  end: { type: 'integer' },
};

const responseSchema = {
  type: 'object',
  required: ['redacted_text', 'mode', 'entities', 'rejected_candidates', 'summary'],
  properties: {
    redacted_text: { type: 'string' },
    mode: { type: 'string', enum: TEXT_MODES },
    entities: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          ...span,
          confidence: { type: 'number' },
          validated: { type: 'boolean' },
          validation: { type: 'string', description: 'The rule that validated the value' },
        },
      },
    },
    rejected_candidates: {
      type: 'array',
      items: { type: 'object', properties: { ...span, reason: { type: 'string' } } },
    },
    summary: { type: 'object', additionalProperties: { type: 'integer' } },
    pseudonym_fallbacks: {
      type: 'array',
      items: { type: 'string' },
      description: 'Types replaced by tokens in pseudonym mode: their reserved space ran out',
    },
  },
};

const notUtf8 = () =>
  new ApiError('invalid_request', 'Invalid request: `text` must be UTF-8; the body is not.');

export const globalTextRoutes: FastifyPluginAsync<RouteKit> = async (app, kit) => {
  installStrictUtf8Json(app, notUtf8);
  app.post<{ Body: TextBody }>(
    '/api/v1/global/redact/text',
    {
      // The app's ajv coerces scalars (5 would become "5"): `text` is checked as sent, first.
      preValidation: (request) => {
        const body = request.body as { text?: unknown } | null;
        const notString = typeof body === 'object' && body !== null && 'text' in body;
        return notString && typeof body.text !== 'string'
          ? Promise.reject(
              new ApiError('invalid_request', 'Invalid request: `text` must be a string.'),
            )
          : Promise.resolve();
      },
      // Room for JSON's escapes; the text's own limit is checked on the text (413 text_too_large).
      bodyLimit: kit.settings.maxTextBytes * 2 + 64 * 1024,
      schema: {
        tags: ['global'],
        summary: 'Redact global identifiers in plain text',
        description:
          'JSON body: `text` (required); `mode`: token (default), mask, pseudonym or box; ' +
          '`entity_types` and `countries`: comma-separated strings or arrays; `mask_keep`: 0-8 ' +
          '(default 4). Unknown types are 422 `unknown_type`; a bad mode, country or mask_keep ' +
          'its own 422; text over the limit 413 `text_too_large`.',
        security: [{ ApiKey: [] }],
        body: {
          type: 'object',
          required: ['text'],
          properties: {
            text: { type: 'string' },
            mode: { type: 'string' },
            entity_types: listOption,
            countries: listOption,
            mask_keep: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
          },
        },
        response: {
          200: {
            ...responseSchema,
            description: 'The redacted text and its report; X-Entities-Found: values replaced',
          },
          '4xx': { $ref: 'ErrorBody#' },
          '5xx': { $ref: 'ErrorBody#' },
        },
      },
    },
    async (request, reply) => {
      await kit.metering.require(request, 1);
      const body = request.body;
      const countries = resolveCountries(body.countries);
      const result = redactText(body.text, {
        rules: resolveEntityTypes(body.entity_types, countries),
        countries,
        mode: resolveMode(body.mode, TEXT_MODES, 'token'),
        maskKeep: resolveMaskKeep(body.mask_keep),
        maxBytes: kit.settings.maxTextBytes,
      });
      await kit.metering.charge(request, result.entities.length > 0 ? 1 : 0);
      return reply.header('X-Entities-Found', String(result.entities.length)).send({
        redacted_text: result.redactedText,
        mode: result.mode,
        entities: result.entities,
        rejected_candidates: result.rejected,
        summary: result.summary,
        pseudonym_fallbacks: result.pseudonymFallbacks,
      });
    },
  );
  return Promise.resolve();
};
