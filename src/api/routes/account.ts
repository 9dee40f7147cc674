/**
 * GET /api/v1/account: the calling key's own limits and this month's usage. Not in
 * the README; added so that a client can read its quota without spending a document.
 */
import type { FastifyPluginAsync } from 'fastify';
import { monthOf } from '../../accounts/calendar.js';
import { propertiesOfType } from '../route-schemas.js';
import '../request-context.js';

export const accountRoutes: FastifyPluginAsync<{ clock: () => Date }> = async (app, { clock }) => {
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
};
