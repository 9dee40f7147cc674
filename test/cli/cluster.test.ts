/**
 * `parda serve --workers N`: the primary replaces a worker process that exits, and the service
 * keeps answering meanwhile. A real server on a loopback port, its workers found as the
 * primary's child processes (Linux `/proc`).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { childrenOf, freePort, until } from '../helpers/processes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(root, 'bin', 'parda');

/** True when /health answers 200 within a few seconds (a probe must not hang past the deadline). */
async function healthy(base: string): Promise<true | undefined> {
  const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(5000) });
  return response.ok ? true : undefined;
}

describe('parda serve --workers 2', { skip: process.platform !== 'linux' }, () => {
  let dir: string;
  let primary: ChildProcess;
  let base: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-cluster-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    primary = spawn(bin, ['serve', '--workers', '2', '--port', String(port)], {
      env: {
        ...process.env,
        PARDA_DATABASE_URL: `sqlite:///${path.join(dir, 'cluster.db')}`,
        PARDA_LOG_LEVEL: 'silent',
        PARDA_MAX_CONCURRENT_DOCUMENTS: '1',
        // Warm-up delays each worker's listen by tens of seconds on a busy two-core runner,
        // which is what the fresh-clone CI ran into; it is not what this test is about.
        PARDA_WARM_UP_ROUNDS: '0',
      },
      stdio: 'ignore',
    });
  });

  after(async () => {
    if (primary.exitCode === null) {
      const exited = new Promise((r) => primary.once('exit', r));
      primary.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('replaces a worker process that is killed, and serves on', async () => {
    const pid = primary.pid ?? 0;
    const workers = await until('two workers', async () => {
      const found = childrenOf(pid);
      return found.length === 2 ? found : undefined;
    });
    await until('the service', () => healthy(base));

    const [victim] = workers;
    process.kill(victim ?? 0, 'SIGKILL');
    // The service answers again without a restart: the other worker (when it has finished
    // loading its models) or the replacement, forked a second later.
    await until('the service after the kill', () => healthy(base));
    const replaced = await until('a replacement worker', async () => {
      const now = childrenOf(pid);
      return now.length === 2 && !now.includes(victim ?? 0) ? now : undefined;
    });
    assert.ok(replaced.includes(workers[1] ?? 0), 'the surviving worker was left alone');
    assert.equal(primary.exitCode, null, 'the primary is still running');
  });
});
