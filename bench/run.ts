/**
 * Service-foundation benchmark: what authentication, rate limiting, quota metering, the
 * usage log and intake cost per request. Prints a table; asserts nothing.
 *   make bench            (SQLite)
 *   PARDA_BENCH_POSTGRES_URL=postgres://... make bench   (adds PostgreSQL)
 */
import { performance } from 'node:perf_hooks';
import { percentile } from './http.js';
import type { Backend } from '../test/helpers/databases.js';
import { backends } from '../test/helpers/databases.js';
import { startTestApp, type TestApp } from '../test/helpers/app.js';
import * as fixtures from '../test/helpers/fixtures.js';
import { fileUpload } from '../test/helpers/multipart.js';

interface Row {
  case: string;
  backend: string;
  requests: number;
  p50: string;
  p95: string;
  perSecond: string;
  rssMb: string;
}

async function measure(
  name: string,
  backend: string,
  requests: number,
  send: () => Promise<{ statusCode: number }>,
): Promise<Row> {
  for (let i = 0; i < 10; i += 1) await send(); // warm-up
  const times: number[] = [];
  let peakRss = process.memoryUsage().rss;
  const started = performance.now();
  for (let i = 0; i < requests; i += 1) {
    const t0 = performance.now();
    const res = await send();
    times.push(performance.now() - t0);
    if (res.statusCode >= 400) throw new Error(`${name}: status ${res.statusCode}`);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    case: name,
    backend,
    requests,
    p50: `${percentile(times, 0.5).toFixed(2)} ms`,
    p95: `${percentile(times, 0.95).toFixed(2)} ms`,
    perSecond: (requests / elapsed).toFixed(0),
    rssMb: (peakRss / 1_048_576).toFixed(0),
  };
}

async function benchBackend(backend: Backend): Promise<Row[]> {
  const t: TestApp = await startTestApp(backend, { env: { PARDA_LOG_LEVEL: 'silent' } });
  try {
    const { key } = await t.newKey({ monthlyQuota: 1_000_000, requestsPerMinute: 1_000_000 });
    const photo = fileUpload(await fixtures.jpeg({ width: 1600, height: 1000 }), 'card.jpg', [
      { name: 'found', value: '1' },
    ]);
    const pdf = fileUpload(fixtures.pdf({ pages: 5 }), 'doc.pdf', [{ name: 'found', value: '1' }]);
    const upload = (form: { body: Buffer; contentType: string }) => () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/test/probe',
        headers: { 'x-api-key': key, 'content-type': form.contentType },
        payload: form.body,
      });
    const rows = [
      await measure('GET /health (no key)', backend.name, 500, () =>
        t.app.inject({ method: 'GET', url: '/health' }),
      ),
      await measure('GET /api/v1/account (auth, rate limit, usage log)', backend.name, 500, () =>
        t.app.inject({ method: 'GET', url: '/api/v1/account', headers: { 'x-api-key': key } }),
      ),
      await measure('upload 1600x1000 JPEG: intake + charge', backend.name, 100, upload(photo)),
      await measure('upload 5-page PDF: intake + charge', backend.name, 100, upload(pdf)),
    ];
    return rows;
  } finally {
    await t.close();
  }
}

// PostgreSQL is measured only when asked for, whatever the test settings say.
const postgres = process.env['PARDA_BENCH_POSTGRES_URL'];
if (postgres) process.env['PARDA_TEST_POSTGRES_URL'] = postgres;
else delete process.env['PARDA_TEST_POSTGRES_URL'];
const rows: Row[] = [];
for (const backend of backends()) rows.push(...(await benchBackend(backend)));
console.table(rows);
