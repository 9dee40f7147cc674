/**
 * A load test of the real service over loopback HTTP: `node dist/bench/load.js [--requests N]
 * [--soak N] [--workers W]` after a build (defaults 200 requests per concurrency level, a soak
 * of 2000, 1 worker process). Starts `parda serve` on a free port over a fresh SQLite database
 * in a temporary folder, waits until its warm-up is over, then sends a fixed mix of generated
 * documents (card photos, text-layer PDFs, scanned pages, text) at concurrency 1, 4 and 16, and
 * a soak at concurrency 4, while the resident memory of the whole service (the process and,
 * with --workers above 1, its worker processes) is sampled every 100 ms. Prints tables; asserts
 * nothing (docs/benchmarks.md, "Load test").
 *
 * The requests are driven by this script with Node's fetch (undici) at a fixed concurrency,
 * not by autocannon: autocannon keeps one latency histogram per run, so a mixed `requests`
 * array cannot give per-endpoint percentiles, and separate runs per endpoint would no longer be
 * a mixed load. Each latency here is recorded per request, from sending the upload to having
 * read the whole answer, and the percentiles are computed from those records.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { generateDocument } from '../test/fixtures/aadhaar/index.js';
import { generateGlobalDocument } from '../test/fixtures/global/documents.js';
import { globalCorpusLines } from '../test/fixtures/global/values.js';
import { generateRedactionDocument } from '../test/fixtures/redaction/index.js';
import { fileUpload } from '../test/helpers/multipart.js';
import { percentile } from './http.js';
import { freePort } from '../test/helpers/processes.js';

// ---------------------------------------------------------------------------------------------
// Arguments

function option(name: string, fallback: number, min: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < min) {
    console.error(`--${name} takes a whole number of at least ${min}`);
    process.exit(2);
  }
  return value;
}

const REQUESTS = option('requests', 200, 1);
const SOAK = option('soak', 2000, 10);
const WORKERS = option('workers', 1, 1);
const LEVELS = [1, 4, 16] as const;
const SOAK_CONCURRENCY = 4;
const IDLE_AFTER_SOAK_MS = 5000;
const REQUEST_TIMEOUT_MS = 180_000;

// ---------------------------------------------------------------------------------------------
// The workload: generated once, up front, from the seeded test generators

interface Body {
  readonly body: Buffer;
  readonly contentType: string;
}

interface Kind {
  readonly name: string;
  readonly path: string;
  readonly describe: string;
  readonly bodies: readonly Body[];
}

const VARIANTS = 4;
const seeds = Array.from({ length: VARIANTS }, (_, i) => 2026 + i);

async function asJpeg(bytes: Buffer, format: string): Promise<Buffer> {
  return format === 'jpeg' ? bytes : sharp(bytes).jpeg({ quality: 92 }).toBuffer();
}

async function workload(): Promise<Record<'card' | 'pdf' | 'scan' | 'text', Kind>> {
  const cards: Body[] = [];
  const pdfs: Body[] = [];
  const scans: Body[] = [];
  const texts: Body[] = [];
  for (const seed of seeds) {
    const card = await generateDocument('front-photo', seed);
    cards.push(fileUpload(await asJpeg(card.bytes, card.format), `card-${seed}.jpg`));
    const pdf = await generateGlobalDocument('text-pdf', seed);
    pdfs.push(fileUpload(pdf.bytes, pdf.filename));
    const scan = await generateRedactionDocument('jpeg', seed);
    scans.push(fileUpload(scan.bytes, scan.filename));
    const text = globalCorpusLines(seed, 20)
      .map((l) => l.line)
      .join('\n');
    texts.push({
      body: Buffer.from(JSON.stringify({ text, mode: 'token' })),
      contentType: 'application/json',
    });
  }
  return {
    card: {
      name: 'card photo',
      path: '/api/v1/mask-aadhaar',
      describe: '1200-px Aadhaar card photo (JPEG)',
      bodies: cards,
    },
    pdf: {
      name: 'text PDF',
      path: '/api/v1/global/redact',
      describe: '3-page PDF with a text layer, box mode',
      bodies: pdfs,
    },
    scan: {
      name: 'scanned page',
      path: '/api/v1/redact-pii',
      describe: 'one scanned A4 page, JPEG at 150-200 dpi',
      bodies: scans,
    },
    text: {
      name: 'text',
      path: '/api/v1/global/redact/text',
      describe: '20 lines of prose with identifiers, JSON, token mode',
      bodies: texts,
    },
  };
}

/**
 * The mix, as a cycle of ten requests: 4 card photos, 2 text PDFs, 1 scanned page and 3 texts.
 * Request i is slot i % 10 of the cycle, on variant (i / 10) % 4 of its kind.
 */
const CYCLE = [
  'card',
  'text',
  'pdf',
  'card',
  'text',
  'scan',
  'card',
  'pdf',
  'text',
  'card',
] as const;

// ---------------------------------------------------------------------------------------------
// The service and its memory

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-load-'));
const cli = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const env = {
  ...process.env,
  PARDA_DATABASE_URL: `sqlite:///${path.join(work, 'accounts.db')}`,
  PARDA_LOG_LEVEL: 'warn',
  PARDA_TMP_DIR: path.join(work, 'tmp'),
  PARDA_HOST: '127.0.0.1',
};

/** `pid` and its descendant processes (cluster workers), from /proc/<pid>/task/<tid>/children. */
function tree(pid: number): number[] {
  const out: number[] = [];
  for (const queue = [pid]; queue.length > 0;) {
    const next = queue.pop() ?? 0;
    out.push(next);
    try {
      for (const task of fs.readdirSync(`/proc/${next}/task`)) {
        const children = fs.readFileSync(`/proc/${next}/task/${task}/children`, 'utf8').trim();
        if (children) queue.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // The process ended while being read.
    }
  }
  return out;
}

/** Summed VmRSS of `pid` and its descendants, in MB. */
function treeRssMb(pid: number): number {
  let kb = 0;
  for (const p of tree(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // Gone.
    }
  }
  return kb / 1024;
}

/** Summed user and system CPU time of `pid` and its descendants, in clock ticks. */
function treeCpuTicks(pid: number): number {
  let ticks = 0;
  for (const p of tree(pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone.
    }
  }
  return ticks;
}

/** Samples the service's RSS every 100 ms until stopped: the peak and the last sample. */
class RssSampler {
  peak = 0;
  last = 0;
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly pid: number) {
    this.sample();
    this.timer = setInterval(() => {
      this.sample();
    }, 100);
  }
  sample(): number {
    this.last = treeRssMb(this.pid);
    this.peak = Math.max(this.peak, this.last);
    return this.last;
  }
  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}

async function startService(port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--port', String(port), '--workers', String(WORKERS)],
    { env, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const until = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`parda serve exited (${child.exitCode})`);
    if (Date.now() > until) throw new Error('the service did not answer /health within 180 s');
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`, {
        signal: AbortSignal.timeout(2000),
      });
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  // With several worker processes the port answers as soon as the first one listens: wait
  // until every worker process exists and the whole service is idle (its warm-up rounds done).
  const pid = child.pid ?? 0;
  let idleFor = 0;
  for (let before = treeCpuTicks(pid); idleFor < 2 && Date.now() < until;) {
    await sleep(500);
    const now = treeCpuTicks(pid);
    const everyWorker = WORKERS === 1 || tree(pid).length > WORKERS;
    idleFor = everyWorker && now - before <= 5 ? idleFor + 1 : 0;
    before = now;
  }
  return child;
}

// ---------------------------------------------------------------------------------------------
// Sending

interface Result {
  readonly kind: string;
  readonly ms: number;
  /** `undefined` for a 2xx; otherwise the status and error code, or `timeout` / `no answer`. */
  readonly error?: string;
}

async function send(base: string, key: string, kind: Kind, body: Body): Promise<Result> {
  const started = performance.now();
  try {
    const res = await fetch(`${base}${kind.path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': body.contentType },
      body: body.body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const answer = Buffer.from(await res.arrayBuffer());
    const ms = performance.now() - started;
    if (res.ok) return { kind: kind.name, ms };
    let code = '';
    try {
      const parsed = JSON.parse(answer.toString('utf8')) as { error?: unknown };
      if (typeof parsed.error === 'string') code = parsed.error;
    } catch {
      // Not a JSON error body.
    }
    return { kind: kind.name, ms, error: code ? `${res.status} ${code}` : String(res.status) };
  } catch (error) {
    const ms = performance.now() - started;
    return {
      kind: kind.name,
      ms,
      error: (error as Error).name === 'TimeoutError' ? 'timeout' : 'no answer',
    };
  }
}

/**
 * Sends requests `first` .. `first + count - 1` of the mix, `concurrency` at a time; calls
 * `onDone` after each with how many are done.
 */
async function run(
  send1: (i: number) => Promise<Result>,
  first: number,
  count: number,
  concurrency: number,
  onDone: (done: number) => void = () => undefined,
): Promise<{ results: Result[]; seconds: number }> {
  const results: Result[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = first + next;
        next += 1;
        results.push(await send1(i));
        onDone(results.length);
      }
    }),
  );
  return { results, seconds: (performance.now() - started) / 1000 };
}

// ---------------------------------------------------------------------------------------------
// Reporting

const round = (n: number) => Math.round(n);

function errorSummary(results: readonly Result[]): string {
  const counts = new Map<string, number>();
  for (const r of results) if (r.error) counts.set(r.error, (counts.get(r.error) ?? 0) + 1);
  return [...counts]
    .sort()
    .map(([e, n]) => `${e} x${n}`)
    .join(', ');
}

function rows(
  concurrency: number,
  kinds: readonly Kind[],
  results: readonly Result[],
  seconds: number,
  peakMb: number,
) {
  const out = [];
  const groups: [string, readonly Result[]][] = [
    ...kinds.map((k): [string, Result[]] => [
      `${k.name} ${k.path.replace('/api/v1', '')}`,
      results.filter((r) => r.kind === k.name),
    ]),
    ['all', results],
  ];
  for (const [name, group] of groups) {
    const times = group.map((r) => r.ms).sort((a, b) => a - b);
    const ok = group.filter((r) => !r.error).length;
    const all = name === 'all';
    out.push({
      concurrency,
      endpoint: name,
      count: group.length,
      errors: group.length - ok,
      'p50 ms': round(percentile(times, 0.5)),
      'p95 ms': round(percentile(times, 0.95)),
      'p99 ms': round(percentile(times, 0.99)),
      'docs/s': (ok / seconds).toFixed(2),
      'peak RSS MB': all ? round(peakMb) : '',
      'errors by status/code': errorSummary(group),
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The run

const started = Date.now();
const mix = await workload();
const kinds = [mix.card, mix.pdf, mix.scan, mix.text];
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const key = (
  execFileSync(
    process.execPath,
    [cli, 'keys', 'create', '--org', 'load', '--quota', '1000000', '--rpm', '1000000'],
    { env, encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .at(-1) ?? ''
).trim();

const child = await startService(port);
const pid = child.pid ?? 0;
const sendIndex = (i: number) => {
  const kind = mix[CYCLE[i % CYCLE.length] ?? 'card'];
  const body = kind.bodies[Math.floor(i / CYCLE.length) % kind.bodies.length] as Body;
  return send(base, key, kind, body);
};

console.log(
  `Parda load test: parda serve --workers ${WORKERS} on ${base}, SQLite, ` +
    `PARDA_LOG_LEVEL=warn; Node ${process.version}, ${os.cpus().length} CPUs, ` +
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at the start`,
);
console.log(`Mix, in a fixed cycle of ${CYCLE.length} requests (${VARIANTS} variants of each):`);
for (const k of kinds) {
  const share = CYCLE.filter((c) => mix[c] === k).length;
  console.log(`  ${share * 10}% ${k.name}: POST ${k.path}, ${k.describe}`);
}

// Warm-up, not counted: each variant of each kind once, one at a time.
await run(sendIndex, 0, CYCLE.length * VARIANTS, 1);
const baselineMb = treeRssMb(pid);
console.log(`RSS after warm-up: ${round(baselineMb)} MB`);

const levelRows = [];
let offset = 0;
for (const concurrency of LEVELS) {
  const sampler = new RssSampler(pid);
  const { results, seconds } = await run(sendIndex, offset, REQUESTS, concurrency);
  sampler.stop();
  offset += REQUESTS;
  levelRows.push(...rows(concurrency, kinds, results, seconds, sampler.peak));
}
console.log(
  `\nConcurrency levels: ${REQUESTS} requests each; latency from sending to the whole answer read`,
);
console.table(levelRows);

// The soak: the memory curve at every tenth of the run, then after an idle pause.
const soakSampler = new RssSampler(pid);
const soakStartMb = soakSampler.last;
const curve: { point: string; requests: number; 'elapsed s': string; 'RSS MB': number }[] = [
  { point: 'start', requests: 0, 'elapsed s': '0', 'RSS MB': round(soakStartMb) },
];
const soakStarted = performance.now();
let tenth = 1;
const soak = await run(sendIndex, 0, SOAK, SOAK_CONCURRENCY, (done) => {
  while (tenth <= 10 && done >= (SOAK * tenth) / 10) {
    curve.push({
      point: `${tenth * 10}%`,
      requests: done,
      'elapsed s': ((performance.now() - soakStarted) / 1000).toFixed(0),
      'RSS MB': round(soakSampler.sample()),
    });
    tenth += 1;
  }
});
await sleep(IDLE_AFTER_SOAK_MS);
soakSampler.stop();
curve.push({
  point: `after ${IDLE_AFTER_SOAK_MS / 1000} s idle`,
  requests: SOAK,
  'elapsed s': ((performance.now() - soakStarted) / 1000).toFixed(0),
  'RSS MB': round(soakSampler.last),
});
console.log(`\nSoak: ${SOAK} requests of the mix at concurrency ${SOAK_CONCURRENCY}`);
console.table(rows(SOAK_CONCURRENCY, kinds, soak.results, soak.seconds, soakSampler.peak));
console.log('Soak memory curve (RSS of the whole service, sampled as each tenth completes)');
console.table(curve);
console.table({
  'RSS after warm-up MB': round(baselineMb),
  'soak start MB': round(soakStartMb),
  'soak peak MB': round(soakSampler.peak),
  [`soak end, after ${IDLE_AFTER_SOAK_MS / 1000} s idle MB`]: round(soakSampler.last),
  'end - start MB': round(soakSampler.last - soakStartMb),
});

const alive = child.exitCode === null && child.signalCode === null;
const service = tree(pid);
child.kill('SIGTERM');
await Promise.race([new Promise((resolve) => child.once('exit', resolve)), sleep(10_000)]);
// Whatever of the service is left (a worker process the primary did not stop), by its id.
for (const p of service) {
  try {
    process.kill(p, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
fs.rmSync(work, { recursive: true, force: true });
console.log(
  `\nService alive at the end: ${alive}; load average at the end ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${((Date.now() - started) / 1000).toFixed(0)} s in all`,
);
