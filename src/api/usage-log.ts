/** Records every request in the usage log: endpoint, size, time, status and counts only. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountStore } from '../accounts/store.js';
import { loggableError } from './errors.js';
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

/** Every route is recorded, the public documentation UI included; none is left out. */
export function installUsageLog(
  app: FastifyInstance,
  store: AccountStore,
  clock: () => Date,
): void {
  app.addHook('onResponse', async (request, reply) => {
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
        at: clock(),
      });
    } catch (error) {
      request.log.error({ err: loggableError(error) }, 'usage record could not be written');
    }
  });
}
