/**
 * `parda serve` stops gracefully: on SIGTERM it takes no new connection, lets the request in
 * flight finish and exits 0; past PARDA_SHUTDOWN_GRACE_SECONDS it cuts the request off and exits
 * non-zero. With `--workers 2`, SIGTERM to the primary ends every worker and the primary. A real
 * server (the compiled CLI) on a loopback port, over a SQLite database in a temporary folder.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { mupdf } from '../../src/documents/mupdf.js';
import { renderPdfPage } from '../../src/documents/render.js';
import { imagesToPdf } from '../../src/documents/writers.js';
import { pdfWithLines } from '../helpers/fixtures.js';
import { fileUpload } from '../helpers/multipart.js';
import { alive, childrenOf, freePort, until } from '../helpers/processes.js';

const cli = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

/** One request on a connection of its own (no keep-alive pool to hide a refused connection). */
function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          if (!res.complete) reject(new Error('the response was cut off'));
          else
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
            });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A scan: image-only PDF pages of text with an Aadhaar number on each, which OCR reads slowly. */
async function scannedPdf(pages: number): Promise<Buffer> {
  const text = mupdf.Document.openDocument(
    pdfWithLines(
      Array.from({ length: pages }, (_, i) => [
        { text: `Statement page ${i + 1}`, x: 72, y: 780, size: 16 },
        { text: 'Aadhaar 2345 6789 0124', x: 72, y: 740, size: 16 },
        { text: 'Customer copy, please keep it safe.', x: 72, y: 700, size: 16 },
      ]),
    ),
    'application/pdf',
  ).asPDF();
  assert.ok(text);
  const rasters = Array.from({ length: pages }, (_, i) => renderPdfPage(text, i, 150));
  text.destroy();
  return imagesToPdf(
    rasters,
    rasters.map(() => 150),
  );
}

interface Server {
  readonly child: ChildProcess;
  readonly base: string;
  readonly key: string;
  /** Everything the server wrote to standard output (its JSON log lines). */
  readonly stdout: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** The body of a /health/ready answer. */
function readiness(answer: Answer) {
  return JSON.parse(answer.body.toString('utf8')) as {
    status: string;
    checks: { warm_up: string; pool: { busy: number } };
  };
}

/** The two worker processes of a `--workers 2` server, once both are forked. */
function twoWorkers(server: Server): Promise<number[]> {
  const pid = server.child.pid ?? 0;
  return until('two workers', async () => {
    const found = childrenOf(pid);
    return found.length === 2 ? found : undefined;
  });
}

/** Waits for the primary's "serving" line, said once both workers listen. */
function bothListening(server: Server): Promise<true> {
  return until('both workers listening', () =>
    Promise.resolve(server.stdout().includes('with 2 workers') ? true : undefined),
  );
}

/** Starts `parda serve` without waiting for it to answer. */
async function launchServer(dir: string, env: Record<string, string>, args: string[] = []) {
  const serverEnv = {
    ...process.env,
    PARDA_DATABASE_URL: `sqlite:///${path.join(dir, 'parda.db')}`,
    PARDA_LOG_LEVEL: 'info',
    PARDA_MAX_CONCURRENT_DOCUMENTS: '1',
    PARDA_WARM_UP_ROUNDS: '0',
    ...env,
  };
  const init = spawnSync(process.execPath, [cli, 'init'], { env: serverEnv, encoding: 'utf8' });
  assert.equal(init.status, 0, init.stderr);
  const key = init.stdout.trim().split('\n').at(-1) ?? '';
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [cli, 'serve', '--port', String(port), ...args], {
    env: serverEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>(
    (resolve) => {
      child.once('exit', (code, signal) => {
        resolve({ code, signal, at: Date.now() });
      });
    },
  );
  return { child, base, key, stdout: () => out, exited } satisfies Server;
}

/** Starts `parda serve` and waits until it answers /health. */
async function startServer(dir: string, env: Record<string, string>, args: string[] = []) {
  const server = await launchServer(dir, env, args);
  await until('the service', async () =>
    (await request(`${server.base}/health`)).status === 200 ? true : undefined,
  );
  return server;
}

describe('parda serve: SIGTERM', { skip: process.platform !== 'linux' }, () => {
  let dir: string;
  let slow: Buffer;
  const servers: ChildProcess[] = [];
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-shutdown-'));
    slow = await scannedPdf(6);
  });
  after(() => {
    for (const child of servers) if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the slow document; resolves (with its answer to come) once a worker has taken it. */
  async function startSlow(server: Server) {
    const form = fileUpload(slow, 'scan.pdf');
    const answer = request(`${server.base}/api/v1/redact-pii`, {
      method: 'POST',
      headers: { 'x-api-key': server.key, 'content-type': form.contentType },
      body: form.body,
    });
    answer.catch(() => undefined); // awaited by the test; this keeps an early failure handled
    await until('the document in a worker', async () => {
      const ready = await request(`${server.base}/health/ready`);
      return readiness(ready).checks.pool.busy > 0 ? true : undefined;
    });
    return { answer };
  }

  it('finishes the request in flight, refuses new connections, and exits 0', async () => {
    const server = await startServer(fs.mkdtempSync(path.join(dir, 'a-')), {
      PARDA_SHUTDOWN_GRACE_SECONDS: '60',
    });
    servers.push(server.child);
    const { answer } = await startSlow(server);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    // A new connection is refused (the listener is closed) or, at worst, answered 503.
    const late = await request(`${server.base}/health/ready`).then(
      (res) => res.status,
      (error: unknown) => (error as NodeJS.ErrnoException).code,
    );
    assert.ok(late === 'ECONNREFUSED' || late === 503, `a new connection got ${String(late)}`);

    const res = await answer;
    assert.ok(Date.now() - signalled > 500, 'the request was still running at SIGTERM');
    assert.equal(res.status, 200, res.body.toString('utf8'));
    assert.equal(res.body.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.ok(res.body.subarray(-8).toString('latin1').includes('%%EOF'), 'the whole PDF');
    const doc = mupdf.Document.openDocument(res.body, 'application/pdf');
    assert.equal(doc.countPages(), 6);
    doc.destroy();

    const exit = await server.exited;
    assert.equal(exit.code, 0, server.stdout());
    assert.ok(exit.at - signalled < 60_000, 'within the grace period');
    assert.match(server.stdout(), /draining/);
  });

  it('cuts requests off after the grace period and exits non-zero', async () => {
    const server = await startServer(fs.mkdtempSync(path.join(dir, 'b-')), {
      PARDA_SHUTDOWN_GRACE_SECONDS: '1',
    });
    servers.push(server.child);
    const { answer } = await startSlow(server);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await assert.rejects(answer, 'the request in flight is cut off');
    const exit = await server.exited;
    assert.notEqual(exit.code, 0);
    assert.ok(exit.at - signalled < 5000, `exited ${exit.at - signalled} ms after SIGTERM`);
    assert.match(server.stdout(), /1 request\(s\) cut off/);
  });

  it('with --workers 2, ends every worker and the primary', async () => {
    const server = await startServer(
      fs.mkdtempSync(path.join(dir, 'c-')),
      { PARDA_SHUTDOWN_GRACE_SECONDS: '30' },
      ['--workers', '2'],
    );
    servers.push(server.child);
    const workers = await twoWorkers(server);
    // The primary says "serving" once both workers listen (the second may still be loading
    // when the first answers /health).
    await bothListening(server);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    assert.equal(exit.code, 0, server.stdout());
    assert.ok(exit.at - signalled < 30_000);
    for (const worker of workers) assert.equal(alive(worker), false, `worker ${worker} ended`);
  });

  it('with --workers 2, SIGTERM while the workers still start exits 0 and ends them', async () => {
    const server = await launchServer(
      fs.mkdtempSync(path.join(dir, 'd-')),
      { PARDA_WARM_UP_ROUNDS: '2' },
      ['--workers', '2'],
    );
    servers.push(server.child);
    const workers = await twoWorkers(server);
    // Forked, opening the database or listening: wherever each worker is, it ends cleanly.
    server.child.kill('SIGTERM');
    assert.equal((await server.exited).code, 0, server.stdout());
    for (const worker of workers) assert.equal(alive(worker), false, `worker ${worker} ended`);
  });

  it('with --workers 2, SIGTERM while the listening workers warm up exits 0 and ends them', async () => {
    const server = await launchServer(
      fs.mkdtempSync(path.join(dir, 'e-')),
      { PARDA_WARM_UP_ROUNDS: '3' },
      ['--workers', '2'],
    );
    servers.push(server.child);
    await bothListening(server);
    const workers = childrenOf(server.child.pid ?? 0);
    const ready = await request(`${server.base}/health/ready`);
    assert.equal(ready.status, 503, 'not ready while warming up');
    assert.equal(readiness(ready).checks.warm_up, 'running');
    server.child.kill('SIGTERM');
    assert.equal((await server.exited).code, 0, server.stdout());
    assert.equal(server.stdout().includes('start-up failed'), false, server.stdout());
    for (const worker of workers) assert.equal(alive(worker), false, `worker ${worker} ended`);
  });
});

describe('parda serve: start-up', { skip: process.platform !== 'linux' }, () => {
  let dir: string;
  const servers: ChildProcess[] = [];
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-startup-'));
  });
  after(() => {
    for (const child of servers) if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers /health before the models load, serves a document sent while it warms up, then says ready', async () => {
    const server = await launchServer(dir, { PARDA_WARM_UP_ROUNDS: '3' });
    servers.push(server.child);
    const health = await until('/health', async () => {
      const answer = await request(`${server.base}/health`).catch(() => undefined);
      return answer?.status === 200 ? answer : undefined;
    });
    assert.deepEqual(JSON.parse(health.body.toString('utf8')), { status: 'ok' });
    const early = await request(`${server.base}/health/ready`);
    assert.equal(early.status, 503);
    assert.deepEqual(
      [readiness(early).status, readiness(early).checks.warm_up],
      ['not_ready', 'running'],
    );
    assert.equal(server.stdout().includes('ready in'), false, 'not warm yet');

    const form = fileUpload(
      pdfWithLines([[{ text: 'PAN ABCPE1234F', x: 72, y: 720, size: 14 }]]),
      'pan.pdf',
    );
    const answer = await request(`${server.base}/api/v1/redact-pii`, {
      method: 'POST',
      headers: { 'x-api-key': server.key, 'content-type': form.contentType },
      body: form.body,
    });
    assert.equal(answer.status, 200, answer.body.toString('utf8'));
    assert.equal(answer.headers['x-redacted-count'], '1');

    const ready = await until('ready', async () => {
      const probe = await request(`${server.base}/health/ready`);
      return probe.status === 200 ? probe : undefined;
    });
    assert.deepEqual([readiness(ready).status, readiness(ready).checks.warm_up], ['ready', 'done']);
    assert.match(
      server.stdout(),
      /ready in [\d.]+ s: models loaded in [\d.]+ s, \d warm-up round\(s\)/,
    );
    server.child.kill('SIGTERM');
    assert.equal((await server.exited).code, 0, server.stdout());
  });
});
