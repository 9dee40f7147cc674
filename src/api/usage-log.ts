/** Records every request in the usage log: endpoint, size, time, status and counts only. */
import type { FastifyInstance } from 'fastify';
import type { AccountStore } from '../accounts/store.js';
import { loggableError } from './errors.js';
import './request-context.js';

export function installUsageLog(
  app: FastifyInstance,
  store: AccountStore,
  clock: () => Date,
): void {
  app.addHook('onResponse', async (request, reply) => {
    const declared = Number(request.headers['content-length']);
    try {
      await store.recordUsage({
        requestId: request.id,
        keyId: request.account?.key.id ?? null,
        organisationId: request.account?.key.organisationId ?? null,
        method: request.method,
        endpoint: request.routeOptions.url ?? 'unmatched',
        statusCode: reply.statusCode,
        bytesIn: Math.max(Number.isFinite(declared) ? declared : 0, request.uploadedBytes),
        processingMs: Math.round(reply.elapsedTime),
        documentsCharged: request.account?.charged ?? 0,
        at: clock(),
      });
    } catch (error) {
      request.log.error({ err: loggableError(error) }, 'usage record could not be written');
    }
  });
}
