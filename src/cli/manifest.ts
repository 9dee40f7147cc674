/**
 * OUTDIR/manifest.json of the folder mode: the bulk endpoints' manifest (services/bulk.ts,
 * api/routes/bulk.ts) with the same status words and integer counts, plus each input's path
 * and what `--resume` needs to trust it (the command and its options, whether the run ended).
 * It is rewritten as files finish, always whole: a temporary file renamed over the old one, so
 * that a run stopped at any moment leaves the previous complete manifest, never half of one.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { FAILED, FAILURE, type BatchWords } from '../services/bulk.js';

export const MANIFEST_NAME = 'manifest.json';

/** One input's row. Besides these, the command's own counts (`masked_count`, `types`...). */
export interface ManifestEntry {
  readonly index: number;
  /** The input's path below the inputs' common folder, `/`-separated. */
  readonly path: string;
  readonly filename: string;
  /** The command's word for done or nothing found, or `error`. */
  readonly status: string;
  readonly [field: string]: unknown;
  /** The output's path below OUTDIR; null when nothing was written. */
  readonly output: string | null;
  readonly error?: string;
  readonly message?: string;
}

export interface Manifest {
  readonly command: string;
  /** The command's options as given (never a password): `--resume` refuses other options. */
  readonly options: Readonly<Record<string, string>>;
  /** False while the run goes on, or when it was stopped. */
  readonly complete: boolean;
  readonly submitted: number;
  readonly [count: string]: unknown;
  readonly results: readonly ManifestEntry[];
}

/** `submitted`, then one count per status in the bulk manifests' order. */
export function manifestCounts(
  entries: readonly ManifestEntry[],
  words: BatchWords,
  submitted: number,
): { submitted: number } & Record<string, number> {
  const count = (status: string) => entries.filter((entry) => entry.status === status).length;
  return {
    submitted,
    [words.done]: count(words.done),
    [words.nothingFound]: count(words.nothingFound),
    [FAILED]: count(FAILURE),
  };
}

let temporaries = 0;

/**
 * Writes `file` whole or not at all: a hidden temporary file beside it (same file system, so
 * the rename is atomic; hidden, so the folder mode never takes it as an input), then renamed.
 */
export async function writeAtomically(file: string, bytes: string | Buffer): Promise<void> {
  temporaries += 1;
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${temporaries}.tmp`,
  );
  try {
    await fs.writeFile(temporary, bytes);
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isEntry(value: unknown): value is ManifestEntry {
  return (
    isRecord(value) &&
    typeof value.path === 'string' &&
    typeof value.status === 'string' &&
    (value.output === null || typeof value.output === 'string')
  );
}

/** The manifest in `folder`, null when there is none; a file that is no manifest is refused. */
export async function readManifest(folder: string): Promise<Manifest | null> {
  let text: string;
  try {
    text = await fs.readFile(path.join(folder, MANIFEST_NAME), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (
    !isRecord(parsed) ||
    typeof parsed.command !== 'string' ||
    !isRecord(parsed.options) ||
    !Array.isArray(parsed.results) ||
    !parsed.results.every(isEntry)
  ) {
    throw new Error(`${path.join(folder, MANIFEST_NAME)} is not a parda manifest`);
  }
  return parsed as unknown as Manifest;
}

/**
 * Keeps manifest.json up to date while files finish in parallel: `update` asks for a write of
 * the current state; writes never overlap, and requests made while one is under way are merged
 * into the next (a thousand small files do not mean a thousand rewrites of a growing file).
 */
export class ManifestWriter {
  private writing: Promise<void> | null = null;
  private pending = false;
  private failure: Error | null = null;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => Manifest,
  ) {}

  update(): void {
    this.pending = true;
    this.writing ??= this.drain();
  }

  /** Waits for the writes asked for so far; a failed write fails here. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.failure !== null) throw this.failure;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending) {
        this.pending = false;
        await writeAtomically(this.file, `${JSON.stringify(this.snapshot(), null, 2)}\n`);
      }
    } catch (error) {
      this.failure ??= error instanceof Error ? error : new Error('manifest.json not written');
    } finally {
      this.writing = null;
    }
  }
}
