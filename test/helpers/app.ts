/**
 * Builds the real application over a fresh test database, with a log sink the test can read
 * and, where a test needs a file endpoint before the product's own endpoints exist, the
 * probe endpoint below.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Writable } from 'node:stream';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { buildApp } from '../../src/api/app.js';
import { loggerOptions } from '../../src/api/server-options.js';
import type { RouteKit } from '../../src/api/route-kit.js';
import { createRateLimiter } from '../../src/accounts/rate-limit.js';
import { AccountStore, type NewKey } from '../../src/accounts/store.js';
import { loadSettings, type Settings } from '../../src/config/settings.js';
import { GLOBAL_FORMATS, INDIAN_FORMATS } from '../../src/documents/document.js';
import { intake } from '../../src/documents/intake.js';
import { readUpload } from '../../src/api/uploads.js';
import type { DocumentPool } from '../../src/services/pool/document-pool.js';
import type { Backend, TestDatabase } from './databases.js';

export interface TestApp {
  readonly app: FastifyInstance;
  readonly store: AccountStore;
  readonly database: TestDatabase;
  readonly settings: Settings;
  /** Every log line the app wrote, as text. */
  readonly logs: string[];
  newKey(spec?: Partial<NewKey>): Promise<{ key: string; id: string }>;
  close(): Promise<void>;
}

/**
 * POST /api/v1/test/probe: the intake-and-charge path every file endpoint follows, driven by
 * form parts: `found` (regions the "processing" reports), `delay_ms`, `fail` (throws an
 * error whose text quotes an identifier, which must never reach the client or the logs),
 * `formats` (`indian` or `global`).
 */
export const probeRoutes: FastifyPluginAsync<RouteKit> = async (app, { settings, metering }) => {
  app.post('/api/v1/test/probe', async (request) => {
    await metering.require(request, 1);
    const form = await readUpload(request, {
      fileField: 'file',
      maxFiles: 1,
      fields: ['found', 'delay_ms', 'fail', 'formats', 'pdf_password'],
      maxFileBytes: settings.maxUploadBytes,
    });
    const upload = form.files[0];
    if (!upload) throw new Error('readUpload returned no file');
    const password = form.fields.get('pdf_password');
    const document = await intake(upload.bytes, upload.filename, {
      accepted: form.fields.get('formats') === 'global' ? GLOBAL_FORMATS : INDIAN_FORMATS,
      maxPixels: settings.maxImagePixels,
      maxPages: settings.maxPages,
      maxPdfObjects: settings.maxPdfObjects,
      maxPdfStreamBytes: settings.maxPdfStreamBytes,
      maxPdfNesting: settings.maxPdfNesting,
      ...(password === undefined ? {} : { pdfPassword: password }),
    });
    try {
      await sleep(Number(form.fields.get('delay_ms') ?? 0));
      if (form.fields.has('fail')) throw new Error('engine failed on 2345 6789 0123');
      const found = Number(form.fields.get('found') ?? 0);
      await metering.charge(request, found > 0 ? 1 : 0);
      return {
        format: document.format,
        pages: document.pages.map((p) => ({ kind: p.kind, width: p.width, height: p.height })),
        found,
      };
    } finally {
      document.dispose();
    }
  });
};

export async function startTestApp(
  backend: Backend,
  options: {
    env?: Record<string, string>;
    routes?: FastifyPluginAsync<RouteKit>[];
    /** The document pool; by default the app builds one from the settings. */
    pool?: DocumentPool;
    now?: () => Date;
  } = {},
): Promise<TestApp> {
  const database = await backend.open();
  const settings = loadSettings({ PARDA_LOG_LEVEL: 'info', ...options.env });
  const store = new AccountStore(database.db);
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const app = await buildApp({
    settings,
    store,
    rateLimiter: createRateLimiter({ kind: 'memory' }),
    logger: { ...(loggerOptions(settings.logLevel) as object), stream },
    routes: options.routes ?? [probeRoutes],
    ...(options.pool ? { pool: options.pool } : {}),
    ...(options.now ? { clock: options.now } : {}),
  });
  await app.ready();
  return {
    app,
    store,
    database,
    settings,
    logs,
    async newKey(spec = {}) {
      const { key, record } = await store.createKey({
        organisation: 'test-org',
        monthlyQuota: 100,
        requestsPerMinute: 1000,
        ...spec,
      });
      return { key, id: record.id };
    },
    async close() {
      await app.close();
      await database.cleanup();
    },
  };
}
