/**
 * GET /api/v1/account: the calling key's own limits and this month's usage. Not in
 * the README; added so that a client can read its quota without spending a document.
 * GET /api/v1/account/usage: the calling key's requests, documents and errors per UTC day, and
 * its errors by code (docs/web.md), for the web tool's usage page. Only the calling key's own.
 */
import type { FastifyPluginAsync } from 'fastify';
import { monthOf } from '../../accounts/calendar.js';
import type { AccountStore } from '../../accounts/store.js';
import { propertiesOfType } from '../route-schemas.js';
import '../request-context.js';

/** The longest period /account/usage reports, in days, and its default. */
export const USAGE_MAX_DAYS = 366;
export const USAGE_DEFAULT_DAYS = 30;

const usageResponse = {
  type: 'object',
  required: ['days', 'errors_by_code'],
  properties: {
    days: {
      type: 'array',
      description: 'Every UTC day of the period, oldest first; a day without requests is zeros',
      items: {
        type: 'object',
        required: ['date', 'requests', 'documents', 'errors'],
        properties: {
          date: { type: 'string', format: 'date', description: 'YYYY-MM-DD (UTC)' },
          requests: { type: 'integer', description: 'Requests made with this key' },
          documents: { type: 'integer', description: 'Documents charged to the quota' },
          errors: { type: 'integer', description: 'Requests answered with status 400 or above' },
        },
      },
    },
    errors_by_code: {
      type: 'array',
      description: 'The errors of the period by `error` code, most frequent first',
      items: {
        type: 'object',
        required: ['error', 'count'],
        properties: { error: { type: 'string' }, count: { type: 'integer' } },
      },
    },
  },
} as const;

export interface AccountDeps {
  readonly clock: () => Date;
  /** The usage log, read by /account/usage. */
  readonly store: AccountStore;
}

export const accountRoutes: FastifyPluginAsync<AccountDeps> = async (app, { clock, store }) => {
  app.get(
    '/api/v1/account',
    {
      schema: {
        tags: ['account'],
        summary: "The calling key's limits and this month's usage",
        security: [{ ApiKey: [] }],
        response: {
          200: {
            type: 'object',
            properties: {
              organisation: { type: 'string' },
              key: {
                type: 'object',
                properties: propertiesOfType('string', ['id', 'prefix', 'last4']),
              },
              month: { type: 'string' },
              quota: {
                type: 'object',
                properties: propertiesOfType('integer', ['limit', 'used', 'remaining']),
              },
              requests_per_minute: { type: 'integer' },
              reveal_entitled: { type: 'boolean' },
              paid_until: { type: ['string', 'null'] },
            },
          },
          '4xx': { $ref: 'ErrorBody#' },
        },
      },
    },
    async (request) => {
      const account = request.account;
      if (!account) throw new Error('account route reached without authentication');
      const { key, quota } = account;
      return {
        organisation: key.organisationName,
        key: { id: key.id, prefix: key.prefix, last4: key.last4 },
        month: monthOf(clock()),
        quota,
        requests_per_minute: key.requestsPerMinute,
        reveal_entitled: key.revealEntitled,
        paid_until: key.paidUntil,
      };
    },
  );

  app.get<{ Querystring: { days: number } }>(
    '/api/v1/account/usage',
    {
      schema: {
        tags: ['account'],
        summary: "The calling key's requests, documents and errors per day",
        description:
          `\`days\` (1-${USAGE_MAX_DAYS}, default ${USAGE_DEFAULT_DAYS}): the UTC days reported, ` +
          'ending today. Counts come from the usage log of the calling key only; this request is ' +
          'counted in the next answer, not in its own.',
        security: [{ ApiKey: [] }],
        querystring: {
          type: 'object',
          properties: {
            days: {
              type: 'integer',
              minimum: 1,
              maximum: USAGE_MAX_DAYS,
              default: USAGE_DEFAULT_DAYS,
            },
          },
          additionalProperties: false,
        },
        response: { 200: usageResponse, '4xx': { $ref: 'ErrorBody#' } },
      },
    },
    async (request) => {
      const account = request.account;
      if (!account) throw new Error('account route reached without authentication');
      const usage = await store.keyUsage(account.key.id, request.query.days, clock());
      return { days: usage.days, errors_by_code: usage.errorsByCode };
    },
  );
};
