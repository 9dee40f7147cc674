/**
 * Requests-per-minute limits per key, on rate-limiter-flexible. Each key carries its own
 * per-minute figure, and a limiter instance has one fixed allowance, so one limiter is kept
 * per distinct figure. Storage: this process's memory, the cluster primary (for
 * `parda serve --workers N`), or Redis (several replicas).
 */
import {
  RateLimiterCluster,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
  type RateLimiterStoreAbstract,
} from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds until the next request would be allowed (at least 1 when refused). */
  readonly retryAfterSeconds: number;
}

export interface RequestRateLimiter {
  consume(keyId: string, perMinute: number): Promise<RateDecision>;
}

export type RateLimitBackend =
  | { readonly kind: 'memory' }
  | { readonly kind: 'cluster' }
  | { readonly kind: 'redis'; readonly client: Redis };

type Limiter = RateLimiterAbstract | RateLimiterStoreAbstract;

function makeLimiter(backend: RateLimitBackend, points: number): Limiter {
  const options = { points, duration: 60, keyPrefix: `parda_rpm_${points}` };
  switch (backend.kind) {
    case 'memory':
      return new RateLimiterMemory(options);
    case 'cluster':
      return new RateLimiterCluster({ ...options, timeoutMs: 1000 });
    case 'redis':
      // If Redis is unreachable, limits fall back to this process rather than failing requests.
      return new RateLimiterRedis({
        ...options,
        storeClient: backend.client,
        insuranceLimiter: new RateLimiterMemory(options),
      });
  }
}

export function createRateLimiter(backend: RateLimitBackend): RequestRateLimiter {
  const limiters = new Map<number, Limiter>();
  return {
    async consume(keyId, perMinute) {
      let limiter = limiters.get(perMinute);
      if (!limiter) {
        limiter = makeLimiter(backend, perMinute);
        limiters.set(perMinute, limiter);
      }
      try {
        const res = await limiter.consume(keyId, 1);
        return {
          allowed: true,
          limit: perMinute,
          remaining: res.remainingPoints,
          retryAfterSeconds: 0,
        };
      } catch (rejection) {
        // The library rejects with a RateLimiterRes when the allowance is spent and with an
        // Error when its store fails; only the first is a refusal.
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return {
          allowed: false,
          limit: perMinute,
          remaining: 0,
          retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
        };
      }
    },
  };
}
