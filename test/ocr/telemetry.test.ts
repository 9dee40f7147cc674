/**
 * ONNX Runtime reports telemetry to Microsoft unless ORT_DISABLE_TELEMETRY=1 is in the process's
 * environment when it starts (src/ocr/telemetry-off.ts). A fresh process, with a home, a
 * temporary folder and a working folder of its own and none of that setting, reads a page
 * through the OCR engine (its lanes are worker threads); the runtime must have left no trace
 * of telemetry in any of them: no event cache under ~/.cache/Microsoft, no `.ses` session file,
 * no `mat-debug-PID.log`.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ocrIndex = fileURLToPath(new URL('../../src/ocr/index.js', import.meta.url));

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => fs.statSync(path.join(dir, name)).isFile());
}

describe('ONNX Runtime telemetry', () => {
  it('is off: a process that reads a page leaves no telemetry file in its home, temp or working folder', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-telemetry-'));
    try {
      const home = path.join(root, 'home');
      const tmp = path.join(root, 'tmp');
      const cwd = path.join(root, 'cwd');
      for (const dir of [home, tmp, cwd]) fs.mkdirSync(dir);
      const script = `
        import { createPaddleOcr } from ${JSON.stringify(ocrIndex)};
        const engine = await createPaddleOcr();
        const width = 320, height = 96;
        const pixels = Buffer.alloc(width * height * 3, 255);
        for (let y = 40; y < 56; y += 1) pixels.fill(0, (y * width + 40) * 3, (y * width + 280) * 3);
        const page = await engine.read({ width, height, channels: 3, pixels }, 0);
        await engine.close();
        console.log(JSON.stringify({ lines: page.lines.length, set: process.env.ORT_DISABLE_TELEMETRY }));
      `;
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, TMPDIR: tmp };
      delete env['ORT_DISABLE_TELEMETRY'];
      delete env['XDG_CACHE_HOME'];
      delete env['NODE_TEST_CONTEXT'];
      const file = path.join(root, 'read-a-page.mjs');
      fs.writeFileSync(file, script);
      const { stdout } = await run(process.execPath, [file], { cwd, env });
      const reported = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { set?: string };
      assert.deepEqual(
        { home: filesUnder(home), tmp: filesUnder(tmp), cwd: filesUnder(cwd) },
        { home: [], tmp: [], cwd: [] },
      );
      assert.equal(reported.set, '1');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
