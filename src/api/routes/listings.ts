/** GET /api/v1/pii-types and GET /api/v1/global/entity-types: the catalogue, no key needed. */
import type { FastifyPluginAsync } from 'fastify';
import {
  CATEGORIES,
  listGlobalTypes,
  listIndianTypes,
  type Category,
} from '../../services/listings.js';

const indianTypeSchema = {
  type: 'object',
  required: ['type', 'shape', 'description', 'enabled_by_default'],
  properties: {
    type: { type: 'string' },
    shape: { type: 'string' },
    description: { type: 'string' },
    enabled_by_default: { type: 'boolean' },
  },
} as const;

const globalTypeSchema = {
  type: 'object',
  required: [
    'type',
    'country',
    'countries',
    'category',
    'validation',
    'description',
    'enabled_by_default',
  ],
  properties: {
    type: { type: 'string' },
    country: { type: 'string', description: 'ISO-2 code, EU, or ANY for universal types' },
    countries: { type: 'array', items: { type: 'string' } },
    category: { type: 'string', enum: CATEGORIES },
    validation: { type: 'string' },
    description: { type: 'string' },
    enabled_by_default: { type: 'boolean' },
  },
} as const;

interface GlobalQuery {
  country?: string;
  category?: Category;
}

export const listingRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/api/v1/pii-types',
    {
      config: { public: true },
      schema: {
        tags: ['listings'],
        summary: 'Indian identifier types of /redact-pii',
        response: {
          200: {
            type: 'object',
            required: ['types'],
            properties: { types: { type: 'array', items: indianTypeSchema } },
          },
        },
      },
    },
    async () => ({
      types: listIndianTypes().map((t) => ({
        type: t.type,
        shape: t.shape,
        description: t.description,
        enabled_by_default: t.enabledByDefault,
      })),
    }),
  );

  app.get<{ Querystring: GlobalQuery }>(
    '/api/v1/global/entity-types',
    {
      config: { public: true },
      schema: {
        tags: ['listings'],
        summary: 'Global entity types',
        querystring: {
          type: 'object',
          properties: {
            country: {
              type: 'string',
              pattern: '^([A-Za-z]{2}|ANY|any)$',
              description:
                'ISO-2 code: the types that apply to a document from that country (its own and the universal ones); ANY: universal types only',
            },
            category: { type: 'string', enum: CATEGORIES },
          },
          additionalProperties: false,
        },
        response: {
          200: {
            type: 'object',
            required: ['entity_types', 'categories'],
            properties: {
              entity_types: { type: 'array', items: globalTypeSchema },
              categories: { type: 'array', items: { type: 'string' } },
            },
          },
          422: { $ref: 'ErrorBody#' },
        },
      },
    },
    async (request) => ({
      entity_types: listGlobalTypes(request.query).map((t) => ({
        type: t.type,
        country: t.country,
        countries: t.countries,
        category: t.category,
        validation: t.validation,
        description: t.description,
        enabled_by_default: t.enabledByDefault,
      })),
      categories: CATEGORIES,
    }),
  );
};
