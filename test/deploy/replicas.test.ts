/**
 * deploy/replicas.sh, run as docs/deploy.md describes: two replicas of the compiled `parda
 * serve` on one PostgreSQL database and one Redis, behind nginx, all on free loopback ports.
 * Through nginx, a quota and a rate limit stay exact across the replicas, both replicas
 * answer, and a replica killed mid-run costs at most the requests it had in flight.
 *
 * Needs nginx, PostgreSQL (PARDA_TEST_POSTGRES_URL, or postgres://postgres@127.0.0.1:5432/test)
 * and Redis (PARDA_TEST_REDIS_URL, or redis://127.0.0.1:6379). Without one of them the test is
 * skipped, unless CI is set: there it fails.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { alive, freePort } from '../helpers/processes.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const script = path.join(root, 'deploy', 'replicas.sh');
// The CLI compiled next to this test (dist*/src/cli/main.js), not bin/parda (dist/ only).
const cli = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

const POSTGRES_URL =
  process.env['PARDA_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env['PARDA_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
/**
 * After a replica is gone, nginx may still hand one request an idle kept-alive connection to
 * it if it has not yet handled that connection's close (a busy two-core machine can delay it):
 * such a request was sent, so it is not retried. Requests started this long after are not.
 */
const SETTLE_MS = 250;
const TEXT = JSON.stringify({ text: 'PAN ABCPE1234F' });

/** The nginx deploy/replicas.sh will run: $NGINX, else nginx on PATH, else /usr/sbin/nginx. */
function findNginx(): string | null {
  const chosen = process.env['NGINX'];
  const candidates = chosen
    ? [chosen]
    : [
        ...(process.env['PATH'] ?? '').split(path.delimiter).map((dir) => path.join(dir, 'nginx')),
        '/usr/sbin/nginx',
      ];
  for (const candidate of candidates) {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function redisAnswers(): Promise<boolean> {
  const url = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port || 6379), url.hostname);
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => {
      done(false);
    });
    socket.once('error', () => {
      done(false);
    });
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      // +PONG, or -NOAUTH from a server that wants a password (it still answers).
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

async function missing(): Promise<string | null> {
  if (process.platform !== 'linux') return 'not on Linux';
  if (!findNginx()) return 'nginx is not installed';
  if (!(await postgresAnswers())) return `PostgreSQL does not answer at ${POSTGRES_URL}`;
  if (!(await redisAnswers())) return `Redis does not answer at ${REDIS_URL}`;
  return null;
}

const absent = await missing();
if (absent && process.env['CI']) {
  throw new Error(`test/deploy: ${absent}, and CI is set`);
}

/** `promise`, or a rejection after `ms` (the timer is cleared either way). */
async function within<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(new Error(`timed out waiting for ${what}`));
        }, ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** True when nothing listens on the loopback port any more. */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => {
      resolve(true);
    });
  });
}

/**
 * Polls a condition read synchronously; unlike the helpers' `until`, a throw of `probe` ends the
 * wait at once (the script exited early).
 */
async function until(what: string, probe: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Outcome {
  readonly status: number | 'connection_error';
  readonly error?: string;
  readonly started: number;
  readonly ended: number;
}

async function redactText(base: string, key: string): Promise<Outcome> {
  const started = performance.now();
  try {
    const response = await fetch(`${base}/api/v1/global/redact/text`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: TEXT,
      signal: AbortSignal.timeout(20_000),
    });
    const body = (await response.json()) as { error?: string };
    return {
      status: response.status,
      ...(body.error === undefined ? {} : { error: body.error }),
      started,
      ended: performance.now(),
    };
  } catch {
    return { status: 'connection_error', started, ended: performance.now() };
  }
}

function tally(outcomes: readonly Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) {
    const label = o.error === undefined ? String(o.status) : `${o.status} ${o.error}`;
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

describe('deploy/replicas.sh: two replicas behind nginx', { skip: absent ?? false }, () => {
  const database = `parda_deploy_${crypto.randomBytes(5).toString('hex')}`;
  const databaseUrl = (() => {
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${database}`;
    return url.toString();
  })();
  let runDir = '';
  let script$: ChildProcess | undefined;
  let scriptExit: Promise<unknown> = Promise.resolve();
  let output = '';
  let base = '';
  let replicaPorts: number[] = [];
  let replicaPids: number[] = [];
  let nginxPid = 0;

  async function admin(sql: string): Promise<void> {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  async function createKey(org: string, quota: number, rpm: number): Promise<string> {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, 'keys', 'create', '--org', org, '--quota', String(quota), '--rpm', String(rpm)],
      { env: { ...process.env, PARDA_DATABASE_URL: databaseUrl, PARDA_LOG_LEVEL: 'silent' } },
    );
    const key = stdout.trim().split('\n').at(-1) ?? '';
    assert.match(key, /^pk_live_[A-Za-z0-9]{40}$/);
    return key;
  }

  function accessLog(): string {
    return fs.readFileSync(path.join(runDir, 'logs', 'access.log'), 'utf8');
  }

  before(async () => {
    runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-deploy-'));
    await admin(`create database ${database}`);
    const proxyPort = await freePort();
    replicaPorts = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${proxyPort}`;
    script$ = spawn('bash', [script, '--', process.execPath, cli], {
      env: {
        ...process.env,
        PARDA_DATABASE_URL: databaseUrl,
        PARDA_REDIS_URL: REDIS_URL,
        PARDA_REPLICA_PORTS: replicaPorts.join(','),
        PARDA_PROXY_PORT: String(proxyPort),
        PARDA_RUN_DIR: runDir,
        PARDA_LOG_LEVEL: 'warn',
        // nginx's client_max_body_size follows it (2 MB here), which one test checks.
        PARDA_MAX_UPLOAD_MB: '1',
        PARDA_MAX_CONCURRENT_DOCUMENTS: '1',
        // The text endpoint used here needs no document worker; warm-up would only slow start.
        PARDA_WARM_UP_ROUNDS: '0',
        PARDA_START_TIMEOUT_S: '120',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const child = script$;
    scriptExit = new Promise((resolve) => child.once('exit', resolve));
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until(
      'deploy/replicas.sh to print "ready"',
      () => {
        if (child.exitCode !== null) throw new Error(`replicas.sh exited early:\n${output}`);
        return output.includes(`ready: ${base}`);
      },
      150_000,
    );
    replicaPids = [1, 2].map((n) =>
      Number(fs.readFileSync(path.join(runDir, `replica-${n}.pid`), 'utf8').trim()),
    );
    nginxPid = Number(fs.readFileSync(path.join(runDir, 'nginx.pid'), 'utf8').trim());
  });

  after(async () => {
    // Whatever happened: stop the script (its trap stops the rest), then anything left.
    if (script$ && script$.exitCode === null && script$.signalCode === null) {
      script$.kill('SIGTERM');
      await within('replicas.sh to stop', scriptExit, 40_000).catch(() => undefined);
      script$.kill('SIGKILL');
    }
    for (const pid of [...replicaPids, nginxPid]) {
      if (pid > 0 && alive(pid)) process.kill(pid, 'SIGKILL');
    }
    fs.rmSync(runDir, { recursive: true, force: true });
    await admin(`drop database if exists ${database} with (force)`);
  });

  it('proxies to ready replicas, and /health/ready through nginx is 200', async () => {
    const response = await fetch(`${base}/health/ready`);
    assert.equal(response.status, 200);
    const report = (await response.json()) as { checks: { database: string; redis: string } };
    assert.equal(report.checks.database, 'ok');
    assert.equal(report.checks.redis, 'ok', 'every replica keeps its counters in Redis');
    const conf = fs.readFileSync(path.join(runDir, 'nginx.conf'), 'utf8');
    for (const port of replicaPorts)
      assert.match(conf, new RegExp(`server 127\\.0\\.0\\.1:${port} `));
    assert.doesNotMatch(conf, /@@[A-Z_]+@@/, 'every placeholder of the template was filled in');
  });

  it("passes the client's X-Request-Id through, and logs it", async () => {
    const response = await fetch(`${base}/health`, { headers: { 'X-Request-Id': 'deploy-id-1' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-request-id'), 'deploy-id-1');
    // nginx writes the access log line once the response is sent.
    await until('the access log line', () => accessLog().includes('id=deploy-id-1'), 5000);
  });

  it('refuses a body over PARDA_MAX_UPLOAD_MB + 1 MB at the proxy, in JSON', async () => {
    const response = await fetch(`${base}/api/v1/global/redact/text`, {
      method: 'POST',
      headers: { 'X-API-Key': 'pk_live_unused', 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(3 * 1024 * 1024) }),
    });
    assert.equal(response.status, 413);
    assert.deepEqual(Object.keys((await response.json()) as object), ['error', 'message']);
    // nginx writes the access line after the answer has gone: wait for it, as for the request id.
    const refused = /"POST \/api\/v1\/global\/redact\/text" 413 .* upstream=- /;
    await until('the 413 in the access log', () => refused.test(accessLog()), 5000);
  });

  it('keeps a quota of 20 exact under 40 concurrent requests over both replicas', async () => {
    const key = await createKey('deploy-quota', 20, 100_000);
    const outcomes = await Promise.all(Array.from({ length: 40 }, () => redactText(base, key)));
    assert.deepEqual(tally(outcomes), { '200': 20, '429 quota_exceeded': 20 });

    const account = await fetch(`${base}/api/v1/account`, { headers: { 'X-API-Key': key } });
    const body = (await account.json()) as { quota: { limit: number; used: number } };
    assert.deepEqual(body.quota, { limit: 20, used: 20, remaining: 0 });
  });

  it('keeps a rate limit of 10 a minute exact over both replicas (Redis)', async () => {
    const key = await createKey('deploy-rpm', 100_000, 10);
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => redactText(base, key)));
    assert.deepEqual(tally(outcomes), { '200': 10, '429 rate_limited': 20 });
  });

  it('spreads requests over both replicas (nginx access log, $upstream_addr)', () => {
    const seen = new Set<string>();
    for (const line of accessLog().split('\n')) {
      if (!line.includes('"POST /api/v1/global/redact/text" 200')) continue;
      for (const match of line.matchAll(/127\.0\.0\.1:(\d+)/g)) seen.add(match[1] ?? '');
    }
    assert.deepEqual(
      [...seen].filter((port) => replicaPorts.includes(Number(port))).sort(),
      replicaPorts.map(String).sort(),
    );
  });

  it('loses at most the in-flight requests of a replica killed mid-run', async (t) => {
    const key = await createKey('deploy-kill', 100_000, 100_000);
    const total = 60;
    const concurrency = 4;
    const victim = replicaPids[1] ?? 0;
    const outcomes: Outcome[] = [];
    let sent = 0;
    let killSent = Infinity;
    let killDone = Infinity;
    const killing = (async () => {
      await until('20 answers before the kill', () => outcomes.length >= 20, 30_000);
      assert.ok(
        outcomes.every((o) => o.status === 200),
        'all answered before the kill',
      );
      killSent = performance.now();
      process.kill(victim, 'SIGKILL');
      // Gone: no longer a live process, and its port refuses connections (a large process's
      // sockets close only when all of its threads have ended, which takes a moment).
      await until('the killed replica to end', () => !alive(victim), 10_000);
      while (!(await refuses(replicaPorts[1] ?? 0))) await new Promise((r) => setTimeout(r, 5));
      killDone = performance.now();
    })();
    // At least `total` requests, and at least 20 sent once the replica is gone and settled.
    const afterwards = () => outcomes.filter((o) => o.started >= killDone + SETTLE_MS).length;
    const client = async () => {
      while (sent < total || afterwards() < 20) {
        sent += 1;
        outcomes.push(await redactText(base, key));
        // A steady stream, not a burst: the kill lands while requests come and go.
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await Promise.all([killing, ...Array.from({ length: concurrency }, client)]);

    const failed = outcomes.filter((o) => o.status !== 200);
    t.diagnostic(`outcomes ${JSON.stringify(tally(outcomes))}`);
    for (const o of failed) {
      t.diagnostic(
        `failed ${String(o.status)}: started ${(o.started - killSent).toFixed(1)} ms after the kill, ` +
          `ended ${(o.ended - killSent).toFixed(1)} ms after; port closed ${(killDone - killSent).toFixed(1)} ms after`,
      );
    }
    // In flight: sent before the replica was gone (plus a moment for nginx, on a busy
    // machine, to see its kept-alive connections close) and not answered before the kill.
    const settled = killDone + SETTLE_MS;
    const inFlight = outcomes.filter((o) => o.started < settled && o.ended > killSent);
    assert.ok(
      failed.every((o) => inFlight.includes(o)),
      `only requests in flight at the kill may fail: ${JSON.stringify(tally(outcomes))}`,
    );
    for (const o of failed) assert.ok(o.status === 502 || o.status === 'connection_error');
    assert.ok(failed.length <= concurrency, `${failed.length} failed, concurrency ${concurrency}`);
    const afterKill = outcomes.filter((o) => o.started >= settled);
    assert.ok(afterKill.length >= 20, 'requests were sent after the kill');
    assert.ok(
      afterKill.every((o) => o.status === 200),
      JSON.stringify(tally(afterKill)),
    );

    // The survivor answers everything, and the proxy is still ready.
    const survivor = `127.0.0.1:${replicaPorts[0] ?? 0}`;
    const answeredBy = accessLog()
      .trim()
      .split('\n')
      .slice(-10)
      .map((line) => /upstream=(?:[\d.:]+, )*([\d.:]+) /.exec(line)?.[1]);
    assert.deepEqual(new Set(answeredBy), new Set([survivor]));
    assert.equal((await fetch(`${base}/health/ready`)).status, 200);
  });

  it('stops nginx and every replica when the script gets SIGTERM', async () => {
    script$?.kill('SIGTERM');
    await within('replicas.sh to stop', scriptExit, 40_000);
    await until('every process to end', () => ![...replicaPids, nginxPid].some(alive), 5000);
  });
});
