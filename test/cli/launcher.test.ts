/**
 * bin/parda, the launcher: it runs the compiled CLI with node, limiting glibc's malloc arenas to
 * two unless the environment says otherwise (docs/operations.md, "Sizing"), from wherever it is
 * called, through a symbolic link too (npm links a package's bin). A stand-in `node` first on
 * PATH prints what it was given instead of running it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(root, 'bin', 'parda');

describe('bin/parda', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-launcher-'));
    fs.mkdirSync(path.join(dir, 'path'));
    const node = path.join(dir, 'path', 'node');
    fs.writeFileSync(
      node,
      '#!/bin/sh\necho "arenas=${MALLOC_ARENA_MAX:-unset}"\nfor a; do echo "$a"; done\n',
    );
    fs.chmodSync(node, 0o755);
    fs.symlinkSync(bin, path.join(dir, 'parda'));
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const launch = async (command: string, extra: Record<string, string> = {}) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...extra,
      PATH: `${path.join(dir, 'path')}:${process.env['PATH'] ?? ''}`,
    };
    if (!('MALLOC_ARENA_MAX' in extra)) delete env['MALLOC_ARENA_MAX'];
    const { stdout } = await run(command, ['serve', '--port', '0'], { env, cwd: os.tmpdir() });
    return stdout.trimEnd().split('\n');
  };

  it('runs the compiled CLI with two malloc arenas, its arguments passed as given', async () => {
    const [arenas, script, ...args] = await launch(bin);
    assert.equal(arenas, 'arenas=2');
    assert.equal(fs.realpathSync(script ?? ''), path.join(root, 'dist', 'src', 'cli', 'main.js'));
    assert.deepEqual(args, ['serve', '--port', '0']);
  });

  it('keeps an operator’s own MALLOC_ARENA_MAX, and finds the CLI through a symbolic link', async () => {
    const [arenas, script] = await launch(path.join(dir, 'parda'), { MALLOC_ARENA_MAX: '8' });
    assert.equal(arenas, 'arenas=8');
    assert.equal(fs.realpathSync(script ?? ''), path.join(root, 'dist', 'src', 'cli', 'main.js'));
  });
});
