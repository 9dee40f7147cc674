/**
 * The whole hostile set (test/fixtures/hostile) against the real service over loopback HTTP:
 * `node dist/bench/hostile.js` after a build. Starts `parda serve` on a temporary SQLite
 * database, sends every case to every document route (4 at a time, each bounded in time)
 * while /health is polled every 50 ms and the service's RSS (its whole process tree) sampled
 * every 100 ms, restarts the service if it dies or stalls, then prints the figures and exits
 * non-zero when an acceptance bound fails. PARDA_HOSTILE=subset sends only the CI subset.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';
import * as fixtures from '../test/helpers/fixtures.js';
import { multipart, type Part } from '../test/helpers/multipart.js';
import { ALL_ENDPOINTS, type Endpoint } from '../test/fixtures/hostile/endpoints.js';
import { hostileSet } from '../test/fixtures/hostile/index.js';
import { judgeCase, judgeRequest, type Reply } from '../test/fixtures/hostile/verdict.js';
import { percentile } from './http.js';
import { freePort } from '../test/helpers/processes.js';

const CONCURRENCY = 4;
const REQUEST_TIMEOUT_MS = 60_000;
const DEADLINE_MS = Number(process.env['PARDA_HOSTILE_DEADLINE_S'] ?? 1800) * 1000;
const BOUNDS = { healthP99Ms: 100, peakRssMb: 2048 };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'dist/src/cli/main.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-hostile-bench-'));
const env = {
  ...process.env,
  PARDA_DATABASE_URL: `sqlite:///${path.join(work, 'accounts.db')}`,
  PARDA_LOG_LEVEL: 'warn',
  PARDA_TMP_DIR: path.join(work, 'tmp'),
  PARDA_HOST: '127.0.0.1',
};

/** VmRSS of `pid` and all its descendants, in kB, from /proc. */
function treeRssKb(pid: number): number {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while being read.
    }
  }
  let total = 0;
  for (const queue = [pid]; queue.length > 0;) {
    const next = queue.pop() ?? 0;
    try {
      const status = fs.readFileSync(`/proc/${next}/status`, 'utf8');
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // Gone.
    }
    queue.push(...(parents.get(next) ?? []));
  }
  return total;
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const key = (
  execFileSync(
    process.execPath,
    [cli, 'keys', 'create', '--org', 'hostile-bench', '--quota', '1000000000', '--rpm', '1000000'],
    { env, encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .at(-1) ?? ''
).trim();

let child: ChildProcess | undefined;
const exits: string[] = [];
let restarts = 0;
let stopping = false;
let current = 'start-up';

async function waitHealthy(): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${base}/health`, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new Error('the service did not become healthy within 60 s');
}

async function startService(): Promise<void> {
  const proc = spawn(process.execPath, [cli, 'serve', '--port', String(port)], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  proc.on('exit', (code, signal) => {
    if (!stopping) exits.push(`${current}: exit ${String(code)} signal ${String(signal)}`);
  });
  child = proc;
  await waitHealthy();
}

let restarting: Promise<void> | undefined;
/** Replaces a dead or stalled service; requests in flight meanwhile share one restart. */
function restart(reason: string): Promise<void> {
  restarting ??= (async () => {
    restarts += 1;
    console.error(`restarting the service: ${reason}`);
    const old = child;
    if (old && old.exitCode === null && old.signalCode === null) {
      stopping = true;
      old.kill('SIGKILL');
      await new Promise((resolve) => old.once('exit', resolve));
      stopping = false;
    }
    await startService();
  })().finally(() => {
    restarting = undefined;
  });
  return restarting;
}

await startService();
const started = Date.now();

// Pollers: /health every 50 ms, RSS every 100 ms, for as long as the run lasts. The /health
// poller has a thread of its own, so that this thread's work (building requests, unzipping and
// searching outputs) does not add to the latencies it measures.
const HEALTH_POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
const times = [];
let polling = true;
parentPort.on('message', () => { polling = false; });
(async () => {
  while (polling) {
    const t0 = performance.now();
    try {
      await (await fetch(workerData.url, { signal: AbortSignal.timeout(10000) })).arrayBuffer();
      times.push(performance.now() - t0);
    } catch {
      times.push(Math.max(performance.now() - t0, 10000));
    }
    await new Promise((r) => setTimeout(r, Math.max(0, 50 - (performance.now() - t0))));
  }
  parentPort.postMessage(times);
})();
`;
const healthWorker = new Worker(HEALTH_POLLER, {
  eval: true,
  workerData: { url: `${base}/health` },
});
const healthPoller = new Promise<number[]>((resolve) => healthWorker.once('message', resolve));
let peakRssKb = 0;
const rssSampler = setInterval(() => {
  if (child?.pid !== undefined) peakRssKb = Math.max(peakRssKb, treeRssKb(child.pid));
}, 100);

const which = process.env['PARDA_HOSTILE'] === 'subset' ? 'subset' : 'full';
const { cases, requests } = await hostileSet(which);
const ordinary = await fixtures.png({ width: 64, height: 32 });

interface Job {
  readonly id: string;
  readonly endpoint: Endpoint;
  readonly form: { body: Buffer; contentType: string };
  judge(reply: Reply): Promise<string[]>;
}
const jobs: Job[] = [];
for (const endpoint of ALL_ENDPOINTS) {
  for (const c of cases) {
    const parts: Part[] = [{ name: endpoint.field, filename: c.filename, content: c.bytes }];
    if (endpoint.field === 'files')
      parts.push({ name: 'files', filename: 'ordinary.png', content: ordinary });
    for (const [name, value] of Object.entries(c.fields ?? {})) parts.push({ name, value });
    jobs.push({
      id: c.id,
      endpoint,
      form: multipart(parts),
      judge: (r) => judgeCase(endpoint, c, r),
    });
  }
  for (const r of requests) {
    jobs.push({
      id: r.id,
      endpoint,
      form: r.build(endpoint.field, ordinary),
      judge: (reply) => judgeRequest(endpoint, r, reply),
    });
  }
}

const statuses = new Map<string, number>();
const failures: string[] = [];
const count = (status: string) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

async function runJob(job: Job): Promise<void> {
  await restarting;
  current = `${job.id} -> ${job.endpoint.path}`;
  try {
    const res = await fetch(`${base}${job.endpoint.path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': job.form.contentType },
      body: job.form.body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const reply: Reply = {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: Buffer.from(await res.arrayBuffer()),
    };
    count(String(reply.status));
    for (const p of await job.judge(reply)) failures.push(`${job.id} ${job.endpoint.path}: ${p}`);
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    count(timedOut ? 'timeout' : 'no answer');
    failures.push(`${job.id} ${job.endpoint.path}: ${timedOut ? 'timed out' : 'no answer'}`);
    const alive = child?.exitCode === null && child.signalCode === null;
    if (!alive || timedOut) await restart(`${job.id} -> ${job.endpoint.path}`);
  }
}

let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < jobs.length && Date.now() - started < DEADLINE_MS) {
      const job = jobs[next] as Job;
      next += 1;
      await runJob(job);
    }
  }),
);
const unsent = jobs.length - next;

healthWorker.postMessage('stop');
const healthMs = await healthPoller;
await healthWorker.terminate();
clearInterval(rssSampler);
const survived = child?.exitCode === null && child.signalCode === null;
stopping = true;
child?.kill('SIGTERM');
await Promise.race([new Promise((resolve) => child?.once('exit', resolve)), sleep(5000)]);
child?.kill('SIGKILL');
fs.rmSync(work, { recursive: true, force: true });

const sorted = [...healthMs].sort((a, b) => a - b);
const fivexx = [...statuses].filter(([s]) => s.startsWith('5')).reduce((n, [, k]) => n + k, 0);
const missingBodies = failures.filter((f) => f.includes('without a JSON error body')).length;
const markers = failures.filter((f) => f.includes('marker found')).length;
const rows = {
  set: `${which}: ${cases.length} files + ${requests.length} requests x ${ALL_ENDPOINTS.length} routes`,
  requests: jobs.length - unsent,
  unsent,
  seconds: Math.round((Date.now() - started) / 1000),
  ...Object.fromEntries([...statuses].sort().map(([s, n]) => [`status ${s}`, n])),
  '5xx': fivexx,
  'missing error bodies': missingBodies,
  'markers in outputs': markers,
  'process exits': exits.length,
  restarts,
  'alive at the end': survived,
  '/health p50 ms': percentile(sorted, 0.5).toFixed(1),
  '/health p95 ms': percentile(sorted, 0.95).toFixed(1),
  '/health p99 ms': percentile(sorted, 0.99).toFixed(1),
  '/health max ms': (sorted.at(-1) ?? NaN).toFixed(1),
  'peak RSS MB': Math.round(peakRssKb / 1024),
};
console.table(rows);
for (const e of exits) console.log(`exit: ${e}`);
for (const f of failures) console.log(`problem: ${f}`);

const failed =
  exits.length > 0 ||
  restarts > 0 ||
  !survived ||
  unsent > 0 ||
  fivexx > 0 ||
  missingBodies > 0 ||
  markers > 0 ||
  failures.length > 0 ||
  percentile(sorted, 0.99) >= BOUNDS.healthP99Ms ||
  peakRssKb / 1024 >= BOUNDS.peakRssMb;
process.exit(failed ? 1 : 0);
