/**
 * The folder mode of the file commands, end to end through bin/parda: a folder of synthetic
 * cards with a corrupt and an unsupported file among them, OUTDIR/manifest.json, `--resume`,
 * `--jobs`, the progress lines and the exit statuses.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { simpleCard } from '../helpers/cards.js';
import { pdfWithLines } from '../helpers/fixtures.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(root, 'bin', 'parda');
const env = { ...process.env, PARDA_LOG_LEVEL: 'silent' };

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs bin/parda (not on a terminal: stderr is a pipe) and returns its status and output. */
async function parda(...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(bin, args, { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as Partial<Outcome>;
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

interface Row {
  readonly index: number;
  readonly path: string;
  readonly filename: string;
  readonly status: string;
  readonly masked_count?: number;
  readonly redacted_count?: number;
  readonly unverified_count?: number;
  readonly types?: Record<string, number>;
  readonly pages?: number;
  readonly output: string | null;
  readonly error?: string;
  readonly message?: string;
}

interface Manifest {
  readonly command: string;
  readonly complete: boolean;
  readonly [count: string]: unknown;
  readonly results: readonly Row[];
}

const readManifest = (folder: string) =>
  JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as Manifest;

const byPath = (manifest: Manifest) => new Map(manifest.results.map((row) => [row.path, row]));

/** Header and trailer of a PNG around bytes no decoder reads: corrupt, not truncated. */
const CORRUPT_PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('not an image at all IEND'),
]);
/** A GIF named .png: the extension is accepted, the content is not. */
const GIF_AS_PNG = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');

const NUMBER = '2345 6789 0124';

describe('parda mask-aadhaar on a folder', () => {
  let dir: string;
  let input: string;
  let output: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-folders-'));
    input = path.join(dir, 'in');
    output = path.join(dir, 'out');
    fs.mkdirSync(path.join(input, 'front', 'deep'), { recursive: true });
    fs.mkdirSync(path.join(input, 'sub'), { recursive: true });
    fs.writeFileSync(
      path.join(input, 'front', 'card.png'),
      (await simpleCard({ number: NUMBER })).bytes,
    );
    fs.writeFileSync(
      path.join(input, 'front', 'deep', 'back.jpg'),
      (await simpleCard({ lines: ['Government of India', 'no number here'], format: 'jpeg' }))
        .bytes,
    );
    fs.writeFileSync(
      path.join(input, 'letter.pdf'),
      pdfWithLines([[{ text: `Aadhaar No: ${NUMBER}`, x: 72, y: 760 }]]),
    );
    fs.writeFileSync(path.join(input, 'sub', 'broken.png'), CORRUPT_PNG);
    fs.writeFileSync(path.join(input, 'sub', 'notes.png'), GIF_AS_PNG);
    // Neither is taken from a folder: an extension the command does not accept, a hidden name.
    fs.writeFileSync(path.join(input, 'readme.txt'), 'not a document');
    fs.writeFileSync(path.join(input, '.hidden.png'), CORRUPT_PNG);
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const outputs = ['front/card_masked.png', 'front/deep/back.jpg', 'letter_masked.pdf'];

  it('processes every accepted file below the folder, a bad one failing only itself', async () => {
    const result = await parda('mask-aadhaar', input, '-o', output, '--jobs', '2');
    assert.equal(result.code, 1, 'a failed file makes the exit status 1');

    for (const name of outputs) assert.ok(fs.existsSync(path.join(output, name)), name);
    assert.deepEqual(
      fs.readFileSync(path.join(output, 'front/deep/back.jpg')).subarray(0, 3),
      Buffer.from([0xff, 0xd8, 0xff]),
      'nothing found: the JPEG written anew under its own name',
    );
    assert.ok(!fs.existsSync(path.join(output, 'sub')), 'no output for a failed file');

    const manifest = readManifest(output);
    assert.equal(manifest.command, 'mask-aadhaar');
    assert.equal(manifest.complete, true);
    for (const [count, expected] of [
      ['submitted', 5],
      ['masked', 2],
      ['no_number_found', 1],
      ['failed', 2],
    ] as const) {
      assert.equal(manifest[count], expected, count);
    }
    const rows = byPath(manifest);
    assert.deepEqual(
      [...rows.keys()].sort(),
      ['front/card.png', 'front/deep/back.jpg', 'letter.pdf', 'sub/broken.png', 'sub/notes.png'],
      'the .txt and the hidden file are not inputs',
    );
    assert.deepEqual(
      manifest.results.map((row) => row.index),
      [1, 2, 3, 4, 5],
    );
    for (const row of manifest.results) {
      assert.ok(Number.isInteger(row.masked_count), `${row.path} masked_count`);
      assert.ok(Number.isInteger(row.unverified_count), `${row.path} unverified_count`);
    }
    const expect = {
      'front/card.png': ['masked', 1, 'front/card_masked.png'],
      'front/deep/back.jpg': ['no_number_found', 0, 'front/deep/back.jpg'],
      'letter.pdf': ['masked', 1, 'letter_masked.pdf'],
      'sub/broken.png': ['error', 0, null],
      'sub/notes.png': ['error', 0, null],
    } as const;
    for (const [name, [status, masked, out]] of Object.entries(expect)) {
      const row = rows.get(name);
      assert.ok(row, name);
      assert.equal(row.status, status, name);
      assert.equal(row.masked_count, masked, name);
      assert.equal(row.output, out, name);
      assert.equal(row.filename, path.basename(name));
      if (status !== 'error') assert.equal(row.pages, 1, name);
    }
    assert.equal(rows.get('sub/broken.png')?.error, 'corrupt_file');
    assert.equal(rows.get('sub/notes.png')?.error, 'unsupported_file_type');
    for (const name of ['sub/broken.png', 'sub/notes.png']) {
      assert.ok((rows.get(name)?.message ?? '').length > 0, `${name} has a message`);
    }

    // Not on a terminal: one plain line per finished file, no redrawing.
    const lines = result.stderr.split('\n').filter((line) => /^\[\d+\/5\] /.test(line));
    assert.equal(lines.length, 5);
    assert.ok(!result.stderr.includes('\r'));
    assert.ok(lines.some((line) => line.includes('error  sub/broken.png (corrupt_file)')));
    assert.ok(
      lines.some((line) => line.includes('masked  front/card.png -> front/card_masked.png')),
    );

    // The summary on stdout: counts per status, pages, the failed files with their codes.
    assert.match(result.stdout, /^ {2}masked +2$/m);
    assert.match(result.stdout, /^ {2}no_number_found +1$/m);
    assert.match(result.stdout, /^ {2}failed +2$/m);
    assert.match(result.stdout, /^ {2}skipped \(--resume\) +0$/m);
    assert.match(result.stdout, /^ {2}pages processed +3$/m);
    assert.match(
      result.stdout,
      /^Failed:\n {2}sub\/broken\.png +corrupt_file\n {2}sub\/notes\.png +unsupported_file_type$/m,
    );

    // Privacy: not a digit group of the number anywhere the command wrote text.
    const text =
      result.stdout + result.stderr + fs.readFileSync(path.join(output, 'manifest.json'), 'utf8');
    for (const group of NUMBER.split(' ')) assert.ok(!text.includes(group), group);
  });

  it('--resume skips the files done, leaving their outputs alone, and tries the failed again', async () => {
    const mtimes = () => outputs.map((name) => fs.statSync(path.join(output, name)).mtimeMs);
    const before = mtimes();
    const again = await parda('mask-aadhaar', input, '-o', output, '--resume', '--jobs', '2');
    assert.equal(again.code, 1, 'the two bad files fail again');
    assert.deepEqual(mtimes(), before, 'done files are not rewritten');
    assert.match(again.stdout, /^ {2}skipped \(--resume\) +3$/m);
    assert.match(again.stdout, /^ {2}masked +0$/m);
    assert.match(again.stdout, /^ {2}failed +2$/m);
    assert.match(again.stderr, /Resuming: 3 file\(s\) listed as done/);
    assert.equal(
      again.stderr.split('\n').filter((line) => /^\[\d\/2\] error /.test(line)).length,
      2,
    );
    const kept = byPath(readManifest(output));
    assert.equal(kept.size, 5);
    assert.equal(kept.get('front/card.png')?.status, 'masked', 'a skipped file keeps its row');

    // The bad files mended (one replaced by a card, one removed): the run now succeeds.
    fs.writeFileSync(
      path.join(input, 'sub', 'broken.png'),
      (await simpleCard({ lines: ['nothing to mask'] })).bytes,
    );
    fs.rmSync(path.join(input, 'sub', 'notes.png'));
    const mended = await parda('mask-aadhaar', input, '-o', output, '--resume');
    assert.equal(mended.code, 0);
    assert.match(mended.stdout, /^ {2}skipped \(--resume\) +3$/m);
    assert.match(mended.stdout, /^ {2}no_number_found +1$/m);
    const manifest = readManifest(output);
    assert.equal(manifest.submitted, 4);
    assert.equal(manifest.failed, 0);
    const row = byPath(manifest).get('sub/broken.png');
    assert.equal(row?.status, 'no_number_found');
    assert.equal(row.output, 'sub/broken.png');
    assert.ok(fs.existsSync(path.join(output, 'sub', 'broken.png')));
    assert.deepEqual(mtimes(), before);
  });

  it('refuses calls it cannot serve with exit status 2, before any work', async () => {
    const card = path.join(input, 'front', 'card.png');
    const letter = path.join(input, 'letter.pdf');
    const elsewhere = path.join(dir, 'elsewhere');
    const [twoFiles, folder, jobs, missing, otherCommand, ownFolder] = await Promise.all([
      parda('mask-aadhaar', card, letter),
      parda('mask-aadhaar', input),
      parda('mask-aadhaar', input, '-o', elsewhere, '--jobs', '0'),
      parda('mask-aadhaar', card, path.join(dir, 'no-such.png'), '-o', elsewhere),
      parda('mask-pan', input, '-o', output, '--resume'),
      parda('mask-aadhaar', card, letter, '-o', input),
    ]);
    for (const refused of [twoFiles, folder, jobs, missing, otherCommand, ownFolder]) {
      assert.equal(refused.code, 2, refused.stderr);
      assert.equal(refused.stdout, '');
    }
    assert.match(twoFiles.stderr, /need -o OUTDIR/);
    assert.match(folder.stderr, /need -o OUTDIR/);
    assert.match(jobs.stderr, /--jobs expects a whole number/);
    assert.match(missing.stderr, /no such file or folder: .*no-such\.png/);
    assert.match(otherCommand.stderr, /cannot resume: .* written by "parda mask-aadhaar"/);
    assert.match(ownFolder.stderr, /the inputs' own folder/);
    assert.ok(!fs.existsSync(elsewhere), 'nothing was created');
  });
});

describe('parda redact on a pattern', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-pattern-'));
    fs.mkdirSync(path.join(dir, 'pdfs', 'a'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'pdfs', 'b'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'pdfs', 'a', 'pay.pdf'),
      pdfWithLines([[{ text: 'Pay to IBAN GB82 WEST 1234 5698 7654 32 today.', x: 72, y: 760 }]]),
    );
    const plain = [{ text: 'Nothing to hide on this page.', x: 72, y: 760 }];
    fs.writeFileSync(path.join(dir, 'pdfs', 'b', 'plain.pdf'), pdfWithLines([plain, plain]));
    fs.writeFileSync(path.join(dir, 'pdfs', 'b', 'notes.txt'), 'not matched');
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('expands a quoted pattern itself, mirroring paths below its fixed part', async () => {
    const output = path.join(dir, 'out');
    // execFile runs no shell: parda sees the pattern as typed.
    const result = await parda('redact', path.join(dir, 'pdfs', '**', '*.pdf'), '-o', output);
    assert.equal(result.code, 0, result.stderr);
    const rows = byPath(readManifest(output));
    assert.deepEqual([...rows.keys()], ['a/pay.pdf', 'b/plain.pdf']);
    const pay = rows.get('a/pay.pdf');
    assert.equal(pay?.status, 'redacted');
    assert.equal(pay.redacted_count, 1);
    assert.deepEqual(pay.types, { IBAN: 1 });
    assert.equal(pay.output, 'a/pay_redacted.pdf');
    const plain = rows.get('b/plain.pdf');
    assert.equal(plain?.status, 'nothing_found');
    assert.equal(plain.pages, 2);
    assert.equal(plain.output, 'b/plain.pdf', 'unchanged: the input name, no suffix');
    assert.ok(fs.existsSync(path.join(output, 'a', 'pay_redacted.pdf')));
    assert.ok(fs.existsSync(path.join(output, 'b', 'plain.pdf')));
    assert.match(result.stdout, /^ {2}pages processed +3$/m);
    assert.doesNotMatch(result.stdout + result.stderr, /WEST|5698/);
  });

  it('takes one file into a folder when -o names one, and writes JSON for extract', async () => {
    const folder = path.join(dir, 'one');
    fs.mkdirSync(folder);
    const single = await parda('redact', path.join(dir, 'pdfs', 'a', 'pay.pdf'), '-o', folder);
    assert.equal(single.code, 0, single.stderr);
    assert.ok(fs.existsSync(path.join(folder, 'pay_redacted.pdf')));
    assert.equal(readManifest(folder).redacted, 1);

    const json = path.join(dir, 'json');
    const extract = await parda('extract-pan', path.join(dir, 'pdfs'), '-o', json);
    assert.equal(extract.code, 0, 'no card found is no failure');
    const manifest = readManifest(json);
    assert.equal(manifest.command, 'extract-pan');
    assert.equal(manifest.no_document_detected, 2);
    assert.deepEqual(
      manifest.results.map((row) => [row.path, row.status, row.output]),
      [
        ['a/pay.pdf', 'no_document_detected', null],
        ['b/plain.pdf', 'no_document_detected', null],
      ],
    );
    assert.doesNotMatch(extract.stdout, /pages processed/);
  });
});
