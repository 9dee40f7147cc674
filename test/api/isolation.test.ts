/**
 * The HTTP thread stays free while document workers are stuck: /health answers fast, a stuck
 * document gets 422 document_too_complex at its budget, a full queue 503 with Retry-After, and
 * /health/ready says so. The workers here are the fake ones of the pool's tests, which spin,
 * sleep or answer on request.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import { loadSettings } from '../../src/config/settings.js';
import { DocumentPool } from '../../src/services/pool/document-pool.js';
import { backends } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import * as fixtures from '../helpers/fixtures.js';
import { fileUpload } from '../helpers/multipart.js';

const [sqlite] = backends();
const FAKE_WORKER = new URL('../services/pool/fake-worker.js', import.meta.url);

describe('isolation of document work from the HTTP thread', () => {
  let t: TestApp;
  let key: string;
  let behaviour = 'spin';
  before(async () => {
    if (!sqlite) throw new Error('no sqlite backend');
    const settings = loadSettings({});
    // One worker, one place in the queue, a short budget; the fake worker's behaviour is
    // chosen by the test through the options it receives (mask_qr carries nothing of it).
    const pool = new DocumentPool(
      settings,
      {
        threads: 1,
        maxQueue: 1,
        budgetMs: 1500,
        budgetPerPageMs: 0,
        workerHeapMb: 256,
        maxRssBytes: 0,
      },
      () => Promise.resolve({ connect: () => new MessageChannel().port1 }),
      FAKE_WORKER,
    );
    const run = pool.run.bind(pool);
    pool.run = (service, upload, options) =>
      run(service, upload, { ...options, behaviour } as never);
    t = await startTestApp(sqlite, { routes: [], pool, env: { PARDA_LOG_LEVEL: 'warn' } });
    ({ key } = await t.newKey({ monthlyQuota: 100 }));
  });
  after(() => t.close());

  const mask = async () => {
    const form = fileUpload(await fixtures.png({ width: 64, height: 64 }), 'card.png');
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/mask-aadhaar',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
  };

  async function healthTimes(count: number): Promise<number[]> {
    const times: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      const res = await t.app.inject({ method: 'GET', url: '/health' });
      times.push(performance.now() - started);
      assert.equal(res.statusCode, 200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return times;
  }

  it('answers /health fast while a document spins, then stops the document at its budget', async (t2) => {
    behaviour = 'spin';
    const stuck = mask();
    const times = await healthTimes(15);
    t2.diagnostic(`/health while a worker spins: max ${Math.max(...times).toFixed(1)} ms`);
    assert.ok(Math.max(...times) < 100, `every /health under 100 ms (${times.join(', ')})`);
    const res = await stuck;
    assert.equal(res.statusCode, 422);
    const body = res.json<{ error: string; message: string }>();
    assert.equal(body.error, 'document_too_complex');
    assert.match(body.message, /PARDA_DOCUMENT_TIMEOUT_S/);
    assert.ok(
      t.logs.some((line) => line.includes('"document_too_complex"')),
      'the refusal is logged for the operator',
    );
  });

  it('refuses with 503 and Retry-After when the worker is busy and the queue full; /health/ready says not ready', async () => {
    behaviour = 'sleep';
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(ready.statusCode, 200);
    assert.equal(ready.json<{ status: string }>().status, 'ready');

    behaviour = 'spin';
    const first = mask();
    const second = mask();
    // Both taken (one running, one queued) once their uploads are read.
    for (let i = 0; i < 50; i += 1) {
      const r = await t.app.inject({ method: 'GET', url: '/health/ready' });
      if (r.statusCode === 503) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const busy = await t.app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(busy.statusCode, 503);
    const report = busy.json<{
      status: string;
      checks: { database: string; redis: string; pool: { saturated: boolean; busy: number } };
    }>();
    assert.equal(report.status, 'not_ready');
    assert.equal(report.checks.database, 'ok');
    assert.equal(report.checks.redis, 'not_configured');
    assert.equal(report.checks.pool.saturated, true);

    const third = await mask();
    assert.equal(third.statusCode, 503);
    assert.equal(third.json<{ error: string }>().error, 'service_unavailable');
    const retryAfter = Number(third.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${String(retryAfter)}`);

    const answers = await Promise.all([first, second]);
    assert.deepEqual(
      answers.map((r) => r.statusCode),
      [422, 422],
    );
    const afterwards = await t.app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(afterwards.statusCode, 200);
  });
});
