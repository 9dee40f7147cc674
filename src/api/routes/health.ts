/** GET /health: liveness. `{"status":"ok"}` whenever requests can be served, nothing else. */
import type { FastifyPluginAsync } from 'fastify';
import type { AccountStore } from '../../accounts/store.js';
import { ApiError } from '../errors.js';

export const healthRoutes: FastifyPluginAsync<{ store: AccountStore }> = async (app, { store }) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['service'],
        summary: 'Liveness',
        response: {
          200: {
            type: 'object',
            required: ['status'],
            properties: { status: { type: 'string', enum: ['ok'] } },
            additionalProperties: false,
          },
          503: { $ref: 'ErrorBody#' },
        },
      },
    },
    async () => {
      // Without the accounts database no key can be checked, so nothing can be served.
      try {
        await store.ping();
      } catch {
        throw new ApiError('service_unavailable', 'The service cannot serve requests right now.');
      }
      return { status: 'ok' as const };
    },
  );
};
