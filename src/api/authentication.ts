/**
 * The API key check and the per-key rate limit, as one onRequest hook: it runs before any
 * body is read, so an unauthenticated upload is refused without being received.
 */
import type { FastifyInstance } from 'fastify';
import { authenticate } from '../accounts/authenticate.js';
import type { Metering } from '../accounts/metering.js';
import type { RequestRateLimiter } from '../accounts/rate-limit.js';
import type { AccountStore } from '../accounts/store.js';
import { ApiError } from './errors.js';
import './request-context.js';

export interface AuthenticationDeps {
  readonly store: AccountStore;
  readonly metering: Metering;
  readonly rateLimiter: RequestRateLimiter;
  readonly clock: () => Date;
}

export function installAuthentication(app: FastifyInstance, deps: AuthenticationDeps): void {
  app.decorateRequest('account', null);
  app.decorateRequest('uploadedBytes', 0);

  app.addHook('onRequest', async (request, reply) => {
    // Unknown routes (404) have no config and need no key either.
    if (request.routeOptions.config.public || request.routeOptions.url === undefined) return;

    const header = request.headers['x-api-key'];
    const presented = Array.isArray(header) ? header[0] : header;
    const result = await authenticate(deps.store, presented, deps.clock());
    switch (result.outcome) {
      case 'missing':
        throw new ApiError('missing_api_key', 'Send your API key in the X-API-Key header.');
      case 'invalid':
        throw new ApiError('invalid_api_key', 'The API key is not recognised or was revoked.');
      case 'disabled':
        throw new ApiError('key_disabled', 'This API key is disabled; contact your administrator.');
      case 'lapsed':
        throw new ApiError(
          'subscription_lapsed',
          `The paid period of this API key ended on ${result.paidUntil}; renew it to continue.`,
        );
      case 'ok':
        break;
    }
    const { key } = result;
    request.account = { key, quota: await deps.metering.snapshot(key), charged: 0 };

    const decision = await deps.rateLimiter.consume(key.id, key.requestsPerMinute);
    void reply.header('X-RateLimit-Limit', String(decision.limit));
    void reply.header('X-RateLimit-Remaining', String(decision.remaining));
    if (!decision.allowed) {
      throw new ApiError(
        'rate_limited',
        `More than ${decision.limit} requests in a minute; retry after ${decision.retryAfterSeconds} s with exponential back-off.`,
        { headers: { 'Retry-After': String(decision.retryAfterSeconds) } },
      );
    }
  });

  // Every authenticated response, errors included, tells the client where its quota stands.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.account) {
      void reply.header('X-Quota-Used', String(request.account.quota.used));
      void reply.header('X-Quota-Remaining', String(request.account.quota.remaining));
    }
    return payload;
  });
}
