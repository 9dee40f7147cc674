/** Fastify's own options: logging without secrets, safe request ids, body and schema rules. */
import crypto from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    // The key is a secret; the default serializers do not log headers, and this makes sure.
    redact: { paths: ['req.headers["x-api-key"]', 'req.headers.authorization'], remove: true },
  };
}

export function serverOptions(logger: FastifyServerOptions['logger']): FastifyServerOptions {
  return {
    logger,
    // A client's X-Request-Id is kept when it is safe to log; otherwise a fresh one is made.
    requestIdHeader: false,
    genReqId: (req) => {
      const offered = req.headers['x-request-id'];
      return typeof offered === 'string' && SAFE_REQUEST_ID.test(offered)
        ? offered
        : crypto.randomUUID();
    },
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array' } },
  };
}
