/**
 * The parts of the folder mode that need no service: the glob matcher, how PATH... expands,
 * when the folder mode applies, the terminal progress line and the manifest writer.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expandGlob } from '../../src/cli/glob.js';
import { expandInputs, extensionsOf, wantsFolderMode } from '../../src/cli/inputs.js';
import { ManifestWriter, readManifest } from '../../src/cli/manifest.js';
import { Progress } from '../../src/cli/progress.js';
import { GLOBAL_INPUTS, INDIAN_INPUTS } from '../../src/domain/formats.js';

describe('folder mode inputs', () => {
  let dir: string;
  const file = (relative: string) => {
    const full = path.join(dir, ...relative.split('/'));
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, 'x');
    return full;
  };
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-inputs-'));
    for (const name of [
      'scans/a.png',
      'scans/B.JPG',
      'scans/c.webp',
      'scans/notes.txt',
      'scans/.hidden.png',
      'scans/.git/d.png',
      'scans/2024/x.pdf',
      'scans/2024/deep/y.png',
      'scans/out/old_masked.png',
      'other/z.png',
    ]) {
      file(name);
    }
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const relative = (files: readonly string[]) =>
    files.map((f) => path.relative(dir, f).split(path.sep).join('/'));

  it('matches *, ?, [..], {..} and ** without entering hidden names', async () => {
    const glob = async (pattern: string) =>
      relative((await expandGlob(path.join(dir, pattern))).files).sort();
    assert.deepEqual(await glob('scans/*.png'), ['scans/a.png']);
    assert.deepEqual(await glob('scans/?.{png,JPG}'), ['scans/B.JPG', 'scans/a.png']);
    assert.deepEqual(await glob('scans/[ab].*'), ['scans/a.png']);
    assert.deepEqual(await glob('scans/[!a].*'), ['scans/B.JPG', 'scans/c.webp']);
    assert.deepEqual(await glob('scans/**/*.png'), [
      'scans/2024/deep/y.png',
      'scans/a.png',
      'scans/out/old_masked.png',
    ]);
    assert.deepEqual(await glob('scans/2024/**'), ['scans/2024/deep/y.png', 'scans/2024/x.pdf']);
    assert.deepEqual(await glob('scans/.*.png'), ['scans/.hidden.png']);
    assert.deepEqual(await glob('nowhere/*.png'), []);
    assert.equal(
      (await expandGlob(path.join(dir, 'scans', '**', '*.pdf'))).root,
      path.join(dir, 'scans'),
    );
  });

  it('walks folders for accepted extensions only, skipping hidden names and the output folder', async () => {
    const inputs = await expandInputs([path.join(dir, 'scans')], {
      formats: INDIAN_INPUTS,
      outputDir: path.join(dir, 'scans', 'out'),
    });
    assert.equal(inputs.base, path.join(dir, 'scans'));
    assert.deepEqual(
      inputs.files.map((f) => f.relative),
      ['2024/deep/y.png', '2024/x.pdf', 'B.JPG', 'a.png'],
    );
    const global = await expandInputs([path.join(dir, 'scans', 'c.webp')], {
      formats: GLOBAL_INPUTS,
      outputDir: path.join(dir, 'out'),
    });
    assert.deepEqual(
      global.files.map((f) => f.relative),
      ['c.webp'],
    );
  });

  it('takes a named file whatever its extension, each file once, mirrored from the common folder', async () => {
    const inputs = await expandInputs(
      [
        path.join(dir, 'scans', 'notes.txt'),
        path.join(dir, 'other'),
        path.join(dir, 'other', 'z.png'),
      ],
      { formats: INDIAN_INPUTS, outputDir: path.join(dir, 'out') },
    );
    assert.equal(inputs.base, dir);
    assert.deepEqual(
      inputs.files.map((f) => f.relative),
      ['scans/notes.txt', 'other/z.png'],
    );
    await assert.rejects(
      expandInputs([path.join(dir, 'scans', '*.tif')], {
        formats: INDIAN_INPUTS,
        outputDir: path.join(dir, 'out'),
      }),
      /matches no JPEG, PNG or PDF file/,
    );
  });

  it('keeps one file with no -o, or -o FILE, in the single-file mode', async () => {
    const card = path.join(dir, 'scans', 'a.png');
    const mode = (paths: string[], output?: string, asFile = true) =>
      wantsFolderMode(paths, output === undefined ? {} : { output }, asFile);
    assert.equal(await mode([card]), false);
    assert.equal(await mode([card], path.join(dir, 'masked.png')), false);
    assert.equal(await mode([path.join(dir, 'missing.png')]), false, 'fails as it always did');
    assert.equal(await mode([card], path.join(dir, 'other')), true, 'an existing folder');
    assert.equal(await mode([card], `${path.join(dir, 'new')}/`), true, 'a trailing separator');
    assert.equal(
      await mode([card], path.join(dir, 'x.json'), false),
      true,
      'extract: -o is a folder',
    );
    assert.equal(await mode([card, card]), true);
    assert.equal(await mode([path.join(dir, 'scans')]), true);
    assert.equal(await mode([path.join(dir, 'scans', '*.png')]), true);
    assert.equal(await wantsFolderMode([card], { resume: true }, true), true);
  });

  it('takes the extensions of the formats the services accept', () => {
    assert.deepEqual([...extensionsOf(INDIAN_INPUTS)].sort(), ['jpeg', 'jpg', 'pdf', 'png']);
  });
});

describe('folder mode progress', () => {
  it('redraws one line on a terminal and prints failures above it', () => {
    let clock = 0;
    const written: string[] = [];
    const stream = { isTTY: true, columns: 200, write: (text: string) => written.push(text) };
    const progress = new Progress(4, stream, () => clock);
    clock = 2000;
    progress.finished({ path: 'a.png', status: 'masked', output: 'a_masked.png' });
    clock = 4000;
    progress.finished({ path: 'b.png', status: 'error', output: null, error: 'corrupt_file' });
    assert.equal(progress.line(), '2/4 done, 1 failed, 4.0 s elapsed, ETA 4.0 s');
    progress.end();
    const text = written.join('');
    assert.ok(
      written.slice(0, -1).every((chunk) => chunk.startsWith('\r')),
      'every write redraws the line',
    );
    assert.match(text, /1\/4 done, 0 failed, 2\.0 s elapsed, ETA 6\.0 s/);
    assert.match(text, /error {2}b\.png \(corrupt_file\)\n/);
    assert.ok(!text.includes('a_masked.png'), 'done files only move the counter');
    assert.ok(text.endsWith('\n'));
  });

  it('writes one plain line per file elsewhere', () => {
    const written: string[] = [];
    const progress = new Progress(2, { write: (text: string) => written.push(text) });
    progress.finished({ path: 'a.png', status: 'masked', output: 'a_masked.png' });
    progress.finished({ path: 'b.png', status: 'error', output: null, error: 'corrupt_file' });
    progress.end();
    assert.deepEqual(written, [
      '[1/2] masked  a.png -> a_masked.png\n',
      '[2/2] error  b.png (corrupt_file)\n',
    ]);
  });
});

describe('folder mode manifest', () => {
  it('is always whole: merged writes, no temporary file left, read back as written', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-manifest-'));
    try {
      let done = 0;
      const writer = new ManifestWriter(path.join(dir, 'manifest.json'), () => ({
        command: 'mask-pan',
        options: { mask_qr: 'xml' },
        complete: done === 50,
        submitted: 50,
        results: Array.from({ length: done }, (_, i) => ({
          index: i + 1,
          path: `f${i}.png`,
          filename: `f${i}.png`,
          status: 'masked',
          output: `f${i}_masked.png`,
        })),
      }));
      for (; done < 50;) {
        done += 1;
        writer.update();
      }
      await writer.flush();
      const manifest = await readManifest(dir);
      assert.equal(manifest?.complete, true);
      assert.equal(manifest.results.length, 50);
      assert.deepEqual(fs.readdirSync(dir), ['manifest.json']);
      fs.writeFileSync(path.join(dir, 'manifest.json'), '{"not": "a manifest"}');
      await assert.rejects(readManifest(dir), /is not a parda manifest/);
      assert.equal(await readManifest(path.join(dir, 'none')), null);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
