import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import { loadSettings } from '../../../src/config/settings.js';
import { DocumentTooComplexError, ServiceBusyError } from '../../../src/services/errors.js';
import { DocumentPool, type PoolLimits } from '../../../src/services/pool/document-pool.js';

const FAKE_WORKER = new URL('./fake-worker.js', import.meta.url);
const settings = loadSettings({});
const upload = { bytes: Buffer.from('not looked at'), filename: 'x.pdf' };
const fakeOcr = () => Promise.resolve({ connect: () => new MessageChannel().port1 });

function pool(limits: Partial<PoolLimits> = {}): DocumentPool {
  return new DocumentPool(
    settings,
    {
      threads: 1,
      maxQueue: 4,
      budgetMs: 10_000,
      budgetPerPageMs: 0,
      workerHeapMb: 256,
      maxRssBytes: 0,
      ...limits,
    },
    fakeOcr,
    FAKE_WORKER,
  );
}

/** Runs the fake worker's behaviour through the pool (any service name will do). */
function run(p: DocumentPool, options: Record<string, unknown>) {
  return p.run('verify', upload, options as never) as unknown as Promise<{
    threadId: number;
    bytes: Buffer;
  }>;
}

describe('DocumentPool', () => {
  const pools: DocumentPool[] = [];
  const make = (limits: Partial<PoolLimits> = {}) => {
    const p = pool(limits);
    pools.push(p);
    return p;
  };
  after(() => Promise.all(pools.map((p) => p.close())));

  it('runs a task in a worker thread and gives its bytes back as a Buffer', async () => {
    const p = make();
    const result = await run(p, {});
    assert.ok(Buffer.isBuffer(result.bytes));
    assert.deepEqual([...result.bytes], [1, 2, 3]);
    assert.notEqual(result.threadId, 0);
  });

  it('says it is warming up until start() ends, and stops warming once a document is in flight', async () => {
    const p = make({ threads: 1 });
    assert.equal(p.status().warmUp, 'off', 'never started');
    const starting = p.start(10);
    assert.equal(p.status().warmUp, 'running');
    await new Promise((r) => setTimeout(r, 150));
    const document = await run(p, { behaviour: 'sleep', ms: 300 });
    assert.deepEqual([...document.bytes], [1, 2, 3], 'the document sent while warming is served');
    const report = await starting;
    assert.ok(report.rounds >= 1 && report.rounds <= 3, `${report.rounds} rounds of 10`);
    assert.equal(p.status().warmUp, 'done');
    assert.ok(report.warmUpMs >= 100 * report.rounds, String(report.warmUpMs));
  });

  it('stops a document over its budget, replaces the worker and serves the next one', async () => {
    const p = make({ budgetMs: 300 });
    const first = (await run(p, {})).threadId;
    const started = Date.now();
    await assert.rejects(run(p, { behaviour: 'spin' }), (error: unknown) => {
      assert.ok(error instanceof DocumentTooComplexError);
      assert.match(error.message, /PARDA_DOCUMENT_TIMEOUT_S/);
      return true;
    });
    assert.ok(Date.now() - started < 5000, 'the spinning worker was stopped near its budget');
    const next = await run(p, {});
    assert.notEqual(next.threadId, first, 'a fresh worker took the next document');
  });

  it('grows the budget with the page count the worker reports', async () => {
    const p = make({ budgetMs: 200, budgetPerPageMs: 200 });
    // 450 ms of work: over the base budget, within base + 2 pages.
    const result = await run(p, { behaviour: 'pages', pages: 2, ms: 450 });
    assert.deepEqual([...result.bytes], [1, 2, 3]);
    await assert.rejects(
      run(p, { behaviour: 'pages', pages: 0, ms: 450 }),
      DocumentTooComplexError,
    );
  });

  it('never gives a worker that trapped another document', async () => {
    const p = make();
    const before = (await run(p, {})).threadId;
    await assert.rejects(run(p, { behaviour: 'trap' }), DocumentTooComplexError);
    const after = await run(p, {});
    assert.notEqual(after.threadId, before);
  });

  it('tries a document once more when its worker dies under it, then gives up', async () => {
    const p = make();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-pool-'));
    try {
      const result = await run(p, { behaviour: 'exit-once', flag: path.join(dir, 'flag') });
      assert.deepEqual([...result.bytes], [1, 2, 3]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await assert.rejects(run(p, { behaviour: 'exit' }), DocumentTooComplexError);
    assert.deepEqual([...(await run(p, {})).bytes], [1, 2, 3]);
  });

  it('refuses at once with a Retry-After when every worker is busy and the queue is full', async () => {
    const p = make({ maxQueue: 1 });
    const running = run(p, { behaviour: 'sleep', ms: 800 });
    const queued = run(p, { behaviour: 'sleep', ms: 10 });
    assert.equal(p.status().saturated, true);
    await assert.rejects(run(p, {}), (error: unknown) => {
      assert.ok(error instanceof ServiceBusyError);
      assert.ok(error.retryAfterSeconds >= 1 && error.retryAfterSeconds <= 60);
      assert.match(error.message, /PARDA_MAX_QUEUED_DOCUMENTS/);
      return true;
    });
    await Promise.all([running, queued]);
    assert.equal(p.status().saturated, false);
  });
});
