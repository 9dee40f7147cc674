/**
 * The folder mode of the file commands: every input through the command's service, `--jobs` at
 * a time in this one process (one service context, one OCR engine, opened by the caller), each
 * output written under OUTDIR where its input sits below the inputs' common folder, and
 * OUTDIR/manifest.json kept up to date as files finish so that `--resume` can trust it. A file
 * that fails gets its error code in the manifest and stops nothing else. Returns the exit
 * status: 0 when every file was processed (values found or not), 1 when one failed.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Settings } from '../config/settings.js';
import type { WrittenFormat } from '../domain/formats.js';
import { FAILED, FAILURE, statusWord, type BatchWords, type FileStatus } from '../services/bulk.js';
import type { UploadedDocument } from '../services/context.js';
import { serviceFailure } from '../services/errors.js';
import { expandInputs, localUpload, type InputFile } from './inputs.js';
import {
  MANIFEST_NAME,
  ManifestWriter,
  manifestCounts,
  readManifest,
  writeAtomically,
  type Manifest,
  type ManifestEntry,
} from './manifest.js';
import { UsageError } from './parse.js';
import { Progress } from './progress.js';
import { formatSummary } from './summary.js';

/** What the command made of one file. */
export interface BatchOutcome {
  readonly status: Exclude<FileStatus, 'error'>;
  /**
   * The file to write, as `<input name><suffix>.<extension>` (the suffix only when something
   * was found); null when there is nothing to write (extract finding no card).
   */
  readonly output: {
    readonly bytes: Buffer | string;
    readonly suffix: string;
    readonly extension: string;
  } | null;
  /** Pages processed, where the service tells. */
  readonly pages: number | null;
  /** The command's own manifest fields (`masked_count`, `types`, `verdict`...). */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** A file command as the folder mode runs it. */
export interface BatchCommand {
  /** The command's name, recorded in the manifest: `--resume` refuses another command's. */
  readonly name: string;
  readonly words: BatchWords;
  /** The formats the service accepts: folders and patterns yield files with their extensions. */
  readonly formats: readonly WrittenFormat[];
  /** The options as given (no password): recorded, and compared by `--resume`. */
  readonly options: Readonly<Record<string, string>>;
  /** Whether results count pages (the file endpoints' do; extract's and verify's do not). */
  readonly countsPages: boolean;
  /** The command's own fields of a failed file's row (its counts, at zero). */
  readonly failedFields: Readonly<Record<string, unknown>>;
  readonly process: (upload: UploadedDocument) => Promise<BatchOutcome>;
}

export interface BatchFlags {
  readonly output?: string;
  readonly jobs?: number;
  readonly resume?: boolean;
  readonly pdfPassword?: string;
}

/** `--jobs`, or one job per CPU. */
export function jobsOf(flags: BatchFlags): number {
  return Math.max(1, flags.jobs ?? os.availableParallelism());
}

/**
 * The settings of a folder-mode run: as many documents in process at once as `--jobs` says
 * (PARDA_MAX_CONCURRENT_DOCUMENTS bounds the server's; here it would silently cap `--jobs`).
 */
export function batchSettings(settings: Settings, flags: BatchFlags): Settings {
  return { ...settings, maxConcurrentDocuments: jobsOf(flags) };
}

/**
 * The code and message of a failed file: the API's for the same error (services/errors.ts), so
 * that a manifest reads the same from either. Unexpected errors get a fixed message: theirs
 * could quote a document.
 */
export function failureOf(error: unknown): { code: string; message: string } {
  return (
    serviceFailure(error) ?? {
      code: 'processing_failed',
      message: 'Processing failed unexpectedly; retry this file once.',
    }
  );
}

/** `EACCES`, `ENOSPC`...: what a file-system failure may say (its message holds the path). */
const systemCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'unknown error';

/** Output names compared as the file system compares them. */
const sameFileKey = (file: string) =>
  process.platform === 'darwin' || process.platform === 'win32' ? file.toLowerCase() : file;

async function isFolder(target: string): Promise<boolean | null> {
  return fs.stat(target).then(
    (stat) => stat.isDirectory(),
    () => null,
  );
}

const sameOptions = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/**
 * The rows of an earlier run that `--resume` keeps, by input path: files done or found to hold
 * nothing, whose output (if they have one) is still there. Failed files are tried again.
 */
async function resumable(
  outDir: string,
  command: BatchCommand,
  shownDir: string,
): Promise<Map<string, ManifestEntry>> {
  const shown = path.join(shownDir, MANIFEST_NAME);
  let manifest: Manifest | null;
  try {
    manifest = await readManifest(outDir);
  } catch (error) {
    throw new UsageError(`cannot resume: ${error instanceof Error ? error.message : shown}`);
  }
  if (manifest === null) {
    console.error(`No ${shown} to resume from: every file is processed.`);
    return new Map();
  }
  if (manifest.command !== command.name) {
    throw new UsageError(`cannot resume: ${shown} was written by "parda ${manifest.command}"`);
  }
  if (!sameOptions(manifest.options, command.options)) {
    throw new UsageError(
      `cannot resume: ${shown} was written with other options (${JSON.stringify(manifest.options)})`,
    );
  }
  const kept = new Map<string, ManifestEntry>();
  for (const entry of manifest.results) {
    if (entry.status !== command.words.done && entry.status !== command.words.nothingFound) {
      continue;
    }
    const present =
      entry.output === null ||
      (await fs.stat(path.join(outDir, entry.output)).then(
        (stat) => stat.isFile(),
        () => false,
      ));
    if (present) kept.set(entry.path, entry);
  }
  return kept;
}

/** Pages of the rows processed. */
const pagesOf = (rows: readonly ManifestEntry[]): number =>
  rows.reduce((sum, row) => sum + (typeof row.pages === 'number' ? row.pages : 0), 0);

export async function runBatch(
  paths: readonly string[],
  flags: BatchFlags,
  command: BatchCommand,
): Promise<number> {
  if (flags.output === undefined) {
    throw new UsageError(
      'several inputs, a folder or a pattern need -o OUTDIR: the folder the outputs and ' +
        'manifest.json are written to',
    );
  }
  const outDir = path.resolve(flags.output);
  if ((await isFolder(outDir)) === false) {
    throw new UsageError(`-o ${flags.output} is a file; with several inputs -o names a folder`);
  }
  const { files, base } = await expandInputs(paths, {
    formats: command.formats,
    outputDir: outDir,
  });
  if (base === outDir) {
    // An output keeps its input's name when nothing was found: it would replace the input.
    throw new UsageError(
      `-o ${flags.output} is the inputs' own folder; choose another folder for the outputs`,
    );
  }
  const earlier = flags.resume === true ? await resumable(outDir, command, flags.output) : null;
  await fs.mkdir(outDir, { recursive: true });

  const started = Date.now();
  const rows: (ManifestEntry | undefined)[] = new Array<ManifestEntry | undefined>(files.length);
  // Output paths in use: the inputs themselves (never overwritten), the manifest, and the
  // outputs of the files skipped or already written in this run.
  const taken = new Set(files.map((file) => sameFileKey(file.absolute)));
  taken.add(sameFileKey(path.join(outDir, MANIFEST_NAME)));
  const todo: number[] = [];
  files.forEach((file, i) => {
    const kept = earlier?.get(file.relative);
    if (kept === undefined) {
      todo.push(i);
      return;
    }
    rows[i] = { ...kept, index: i + 1 };
    if (kept.output !== null) taken.add(sameFileKey(path.join(outDir, kept.output)));
  });
  const skipped = files.length - todo.length;

  let complete = false;
  const writer = new ManifestWriter(path.join(outDir, MANIFEST_NAME), () => {
    const results = rows.filter((row): row is ManifestEntry => row !== undefined);
    return {
      command: command.name,
      options: command.options,
      complete,
      ...manifestCounts(results, command.words, files.length),
      results,
    };
  });
  writer.update();

  /** `<dir>/<stem>.<ext>` under OUTDIR, or `<stem>_2.<ext>`... when that is taken. */
  const claim = (dir: string, stem: string, extension: string): string => {
    for (let n = 1; ; n += 1) {
      const name = `${stem}${n === 1 ? '' : `_${n}`}.${extension}`;
      const relative = dir === '' ? name : `${dir}/${name}`;
      const key = sameFileKey(path.join(outDir, ...relative.split('/')));
      if (!taken.has(key)) {
        taken.add(key);
        return relative;
      }
    }
  };

  const processOne = async (file: InputFile, index: number): Promise<ManifestEntry> => {
    const head = { index: index + 1, path: file.relative, filename: path.basename(file.absolute) };
    const failed = (failure: { code: string; message: string }): ManifestEntry => ({
      ...head,
      status: FAILURE,
      ...command.failedFields,
      output: null,
      error: failure.code,
      message: failure.message,
    });
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(file.absolute);
    } catch (error) {
      const message = `The file could not be read (${systemCode(error)}).`;
      return failed({ code: 'unreadable_file', message });
    }
    let outcome: BatchOutcome;
    try {
      outcome = await command.process(localUpload(file.absolute, bytes, flags.pdfPassword));
    } catch (error) {
      return failed(failureOf(error));
    }
    let output: string | null = null;
    if (outcome.output !== null) {
      // Something found: the command's suffix (`card_masked.png`); nothing found: the input's
      // own name, so that the name says the document was only written anew.
      const { dir, name } = path.posix.parse(file.relative);
      const suffix = outcome.status === 'done' ? outcome.output.suffix : '';
      output = claim(dir, `${name}${suffix}`, outcome.output.extension);
      const target = path.join(outDir, ...output.split('/'));
      try {
        await fs.mkdir(path.dirname(target), { recursive: true });
        await writeAtomically(target, outcome.output.bytes);
      } catch (error) {
        const message = `The output could not be written (${systemCode(error)}).`;
        return failed({ code: 'output_not_written', message });
      }
    }
    return {
      ...head,
      status: statusWord(outcome.status, command.words),
      ...outcome.fields,
      ...(outcome.pages === null ? {} : { pages: outcome.pages }),
      output,
    };
  };

  if (skipped > 0) {
    console.error(
      `Resuming: ${skipped} file(s) listed as done in ${path.join(flags.output, MANIFEST_NAME)} are skipped.`,
    );
  }
  const progress = new Progress(todo.length);
  const jobs = jobsOf(flags);
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const index = todo[next] ?? 0;
      next += 1;
      const file = files[index] as InputFile;
      const row = await processOne(file, index);
      rows[index] = row;
      writer.update();
      progress.finished({
        path: row.path,
        status: row.status,
        output: row.output,
        ...(row.error === undefined ? {} : { error: row.error }),
      });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(jobs, todo.length) }, worker));
  } finally {
    progress.end();
  }
  complete = true;
  writer.update();
  await writer.flush();

  const processed = todo.map((i) => rows[i]).filter((row) => row !== undefined);
  const count = (status: string) => processed.filter((row) => row.status === status).length;
  const failures = processed.filter((row) => row.error !== undefined);
  console.log(
    formatSummary({
      command: command.name,
      // Counted under the manifest's names: the failed rows (status `error`) as `failed`.
      statuses: [
        [command.words.done, count(command.words.done)],
        [command.words.nothingFound, count(command.words.nothingFound)],
        [FAILED, count(FAILURE)],
      ],
      skipped,
      pages: command.countsPages ? pagesOf(processed) : null,
      outputs: processed.filter((row) => row.output !== null).length,
      elapsedMs: Date.now() - started,
      failed: failures.map((row) => ({ path: row.path, error: row.error ?? '' })),
      manifest: path.join(flags.output, MANIFEST_NAME),
    }),
  );
  return failures.length > 0 ? 1 : 0;
}
