/**
 * A file endpoint on local files, no key: what `parda mask-aadhaar`, `mask-pan`, `redact-pii`
 * and `redact` share. On one file the result is written next to the input as
 * `<name><suffix>.<ext>` (`card_masked.pdf`) unless `-o` names it; exit status 0 something
 * covered, 3 nothing found (the output is then the input written anew), 1 error. On several
 * files, folders or patterns, the folder mode (batch-run.ts) writes into `-o OUTDIR`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { loadSettings, type Settings } from '../config/settings.js';
import { EXTENSIONS, type WrittenFormat } from '../domain/formats.js';
import type { BatchWords } from '../services/bulk.js';
import { serviceContext } from '../services/context.js';
import { inProcessServices } from '../services/document-services.js';
import type {
  FieldValues,
  FileEndpoint,
  FileResult,
  OptionFields,
  ResultSummary,
} from '../services/endpoints/file-endpoint.js';
import { closeEngines } from '../services/engines.js';
import { batchSettings, runBatch, type BatchFlags } from './batch-run.js';
import { localUpload, wantsFolderMode } from './inputs.js';
import { jobCount } from './parse.js';

export const NOTHING_FOUND_EXIT = 3;

/** `<dir>/<name><suffix>.<ext>`: the output beside its input, in the format written. */
function outputBeside(input: string, suffix: string, format: WrittenFormat): string {
  const parsed = path.parse(input);
  return path.join(parsed.dir, `${parsed.name}${suffix}.${EXTENSIONS[format]}`);
}

/** Flags under the endpoint's field names; a flag not given is left out (the field's default). */
export function fieldValues(flags: Readonly<Record<string, string | undefined>>): FieldValues {
  const given = Object.entries(flags).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  return new Map(given);
}

/** The flags every file command takes besides the endpoint's own. */
export interface FileFlags extends BatchFlags {
  output?: string;
  pdfPassword?: string;
}

/** How a command's results read in the folder mode's manifest (the bulk manifests' words). */
export interface BatchShape<R> {
  readonly words: BatchWords;
  /** The row's count of covered values: `masked_count` or `redacted_count`. */
  readonly countField: string;
  /** The formats the service accepts (documents/document.ts). */
  readonly formats: readonly WrittenFormat[];
  readonly pages: (result: R) => number;
  /** The row's fields after its counts (`residual_check`, `types`). */
  readonly details: (result: R, summary: ResultSummary) => Readonly<Record<string, unknown>>;
}

/** `-o` and the folder mode's flags, as every file command takes them. */
export function addOutputOptions(command: Command, suffix: string): Command {
  return command
    .option(
      '-o, --output <path>',
      `one file: where to write the result (default: <input>${suffix}.<ext>); ` +
        'several, a folder or a pattern: the output folder',
    )
    .option(
      '--jobs <n>',
      'folder mode: files processed at once (default: the number of CPUs)',
      jobCount,
    )
    .option('--resume', 'folder mode: skip the files OUTDIR/manifest.json lists as done');
}

/** One command over one endpoint: its flags as the endpoint's fields, and what it prints. */
export interface FileCommand<F extends OptionFields, O, R extends FileResult> {
  /** The command's name (`mask-aadhaar`), recorded in the folder mode's manifest. */
  readonly name: string;
  readonly endpoint: FileEndpoint<F, O, R>;
  readonly values: FieldValues;
  /** Before the options are parsed (global redaction loads rule plugins, which add types). */
  readonly prepare?: (settings: Settings) => Promise<unknown>;
  /** The stdout line when something was covered. */
  readonly done: (summary: ResultSummary, output: string) => string;
  /** The stderr line when nothing was found. */
  readonly nothingFound: (output: string) => string;
  readonly batch: BatchShape<R>;
}

/** One file or the folder mode, as the arguments ask (inputs.ts, `wantsFolderMode`). */
export async function runFileCommand<F extends OptionFields, O, R extends FileResult>(
  inputs: readonly string[],
  flags: FileFlags,
  command: FileCommand<F, O, R>,
): Promise<void> {
  const [only] = inputs;
  if (only !== undefined && !(await wantsFolderMode(inputs, flags, true))) {
    await runOneFile(only, flags, command);
    return;
  }
  const { endpoint, batch } = command;
  const settings = loadSettings();
  await command.prepare?.(settings);
  const options = endpoint.parse(command.values);
  // One context and one OCR engine for the whole run, whatever --jobs says.
  const services = inProcessServices(serviceContext(batchSettings(settings, flags)));
  try {
    process.exitCode = await runBatch(inputs, flags, {
      name: command.name,
      words: batch.words,
      formats: batch.formats,
      options: Object.fromEntries(command.values),
      countsPages: true,
      failedFields: { [batch.countField]: 0, unverified_count: 0 },
      process: async (upload) => {
        const result = await endpoint.run(services, upload, options);
        const summary = endpoint.summarise(result);
        return {
          status: summary.covered > 0 ? 'done' : 'nothing_found',
          output: {
            bytes: result.bytes,
            suffix: endpoint.suffix,
            extension: EXTENSIONS[result.format],
          },
          pages: batch.pages(result),
          fields: {
            [batch.countField]: summary.covered,
            unverified_count: summary.unverified,
            ...batch.details(result, summary),
          },
        };
      },
    });
  } finally {
    await closeEngines();
  }
}

/** Today's single-file command, unchanged. */
async function runOneFile<F extends OptionFields, O, R extends FileResult>(
  input: string,
  flags: FileFlags,
  command: FileCommand<F, O, R>,
): Promise<void> {
  const { endpoint } = command;
  const settings = loadSettings();
  await command.prepare?.(settings);
  // Options first: a bad one is refused before the file is read.
  const options = endpoint.parse(command.values);
  const bytes = await fs.readFile(input);
  try {
    const services = inProcessServices(serviceContext(settings));
    const upload = localUpload(input, bytes, flags.pdfPassword);
    const result = await endpoint.run(services, upload, options);
    const summary = endpoint.summarise(result);
    const output = flags.output ?? outputBeside(input, endpoint.suffix, result.format);
    await fs.writeFile(output, result.bytes);
    if (summary.covered === 0) {
      console.error(command.nothingFound(output));
      process.exitCode = NOTHING_FOUND_EXIT;
    } else {
      console.log(command.done(summary, output));
    }
  } finally {
    await closeEngines();
  }
}

/** `type n, type n`: detections per type, for the printed line. */
export function perTypeList(summary: ResultSummary): string {
  return Object.entries(summary.perType)
    .map(([type, n]) => `${type} ${n}`)
    .join(', ');
}
