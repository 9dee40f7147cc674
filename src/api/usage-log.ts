/**
 * Records every request in the usage log: endpoint, size, time, status, counts and, for a
 * refused or failed request, the `error` code it was answered with; nothing else.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountStore } from '../accounts/store.js';
import { ERROR_STATUS, loggableError } from './errors.js';
import './request-context.js';

/**
 * Bytes received: the declared length, or the parts read when none was declared. Routes that a
 * plugin registered before the request was decorated (the documentation UI) have no
 * `uploadedBytes` at all, and NaN would fail the record's NOT NULL column.
 */
function bytesIn(request: FastifyRequest): number {
  const declared = Number(request.headers['content-length']);
  const uploaded: unknown = request.uploadedBytes;
  return Math.max(
    Number.isFinite(declared) ? declared : 0,
    typeof uploaded === 'number' && Number.isFinite(uploaded) ? uploaded : 0,
  );
}

/**
 * The `error` code of an error body as sent: one of the API's own codes, or null. Nothing else
 * of a body is read, and nothing but a known code is kept.
 */
export function errorCodeOf(payload: unknown): string | null {
  if (typeof payload !== 'string' || payload.length > 64 * 1024) return null;
  try {
    const body: unknown = JSON.parse(payload);
    const code =
      typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : null;
    return typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code) ? code : null;
  } catch {
    return null;
  }
}

/**
 * Every route is recorded, the public documentation UI included; only the metrics scrape
 * (/metrics, which a monitor calls every few seconds) is left out.
 */
export function installUsageLog(
  app: FastifyInstance,
  store: AccountStore,
  clock: () => Date,
): void {
  const errorCodes = new WeakMap<FastifyRequest, string>();
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400) {
      const code = errorCodeOf(payload);
      if (code) errorCodes.set(request, code);
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    if (request.routeOptions.config.scrape) return;
    try {
      await store.recordUsage({
        requestId: request.id,
        keyId: request.account?.key.id ?? null,
        organisationId: request.account?.key.organisationId ?? null,
        method: request.method,
        endpoint: request.routeOptions.url ?? 'unmatched',
        statusCode: reply.statusCode,
        bytesIn: bytesIn(request),
        processingMs: Math.round(reply.elapsedTime),
        documentsCharged: request.account?.charged ?? 0,
        errorCode: reply.statusCode >= 400 ? (errorCodes.get(request) ?? null) : null,
        at: clock(),
      });
    } catch (error) {
      request.log.error({ err: loggableError(error) }, 'usage record could not be written');
    }
  });
}
