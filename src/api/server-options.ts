/** Fastify's own options: logging without secrets, safe request ids, body and schema rules. */
import crypto from 'node:crypto';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Headers that carry credentials. */
const SECRET_HEADERS = [
  'x-api-key',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
];
/** Fields that hold a request's or a response's content. */
const CONTENT_FIELDS = ['body', 'rawBody', 'payload'];
/** Where a logged object can hold headers: Fastify's request, @fastify/multipart's busboy options. */
const HEADER_HOLDERS = [
  'req.headers',
  'res.headers',
  'headers',
  'busboyOptions.headers',
  '*.headers',
];
const REDACT_PATHS = [
  ...HEADER_HOLDERS.flatMap((holder) => SECRET_HEADERS.map((name) => `${holder}["${name}"]`)),
  ...CONTENT_FIELDS.flatMap((field) => [field, `req.${field}`, `*.${field}`]),
];
const DROPPED_FIELDS = new Set([...SECRET_HEADERS, ...CONTENT_FIELDS].map((f) => f.toLowerCase()));
/** An API key anywhere in a string (a URL, a message): `<prefix>_live_<secret>`. */
const KEY_SHAPED = /[a-z][a-z0-9]{1,15}_live_[A-Za-z0-9]{32,128}/g;
const MAX_DEPTH = 8;

function scrubText(text: string): string {
  return text.replace(KEY_SHAPED, '[key]');
}

/**
 * A logged object without credential headers or content at any depth, key-shaped strings
 * replaced. Only plain objects and arrays are copied: errors and other instances are left to
 * their serializers.
 */
export function scrubLogged(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => scrubLogged(item, depth + 1));
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    if (!DROPPED_FIELDS.has(name.toLowerCase())) out[name] = scrubLogged(item, depth + 1);
  }
  return out;
}

/** The request as logged: no headers, and the path without its query (which could carry data). */
function requestSerializer(req: FastifyRequest) {
  return {
    method: req.method,
    url: scrubText(req.url.split('?')[0] ?? ''),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket.remotePort,
  };
}

/**
 * Logging that cannot leak, at any level (libraries log raw headers at `trace`: @fastify/multipart
 * logs the busboy options with every request header): credential headers and content are
 * removed by redaction paths and again, at any depth, before a line is formatted; a string that
 * looks like an API key is replaced wherever it appears.
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACT_PATHS, remove: true },
    serializers: { req: requestSerializer },
    formatters: { log: (object) => scrubLogged(object) as Record<string, unknown> },
    hooks: {
      logMethod(args, method) {
        const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg));
        method.apply(this, scrubbed as typeof args);
      },
    },
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
    // While stopping, the app itself answers (503 for new work, `draining` on /health/ready).
    return503OnClosing: false,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array' } },
  };
}
