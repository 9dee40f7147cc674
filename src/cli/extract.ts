/**
 * `parda extract-aadhaar PATH...` and `parda extract-pan PATH...`: the same services as the API,
 * on local files, no key. One file: the JSON response on stdout; exit status 0 read, 3 no card
 * of the kind found, 1 error. Several, folders or patterns: the folder mode, one JSON file per
 * input in `-o OUTDIR` (batch-run.ts).
 */
import fs from 'node:fs/promises';
import type { Command } from 'commander';
import { loadSettings } from '../config/settings.js';
import type { BatchWords } from '../services/bulk.js';
import { serviceContext, type ServiceContext, type UploadedDocument } from '../services/context.js';
import { closeEngines } from '../services/engines.js';
import { NoDocumentError } from '../services/errors.js';
import { extractAadhaarFile } from '../services/extract-aadhaar.js';
import { extractPanFile } from '../services/extract-pan.js';
import { batchSettings, runBatch, type BatchFlags } from './batch-run.js';
import { NOTHING_FOUND_EXIT } from './file-command.js';
import { INDIAN_INPUTS } from '../domain/formats.js';
import { localUpload, wantsFolderMode } from './inputs.js';
import { jobCount } from './parse.js';

interface ExtractOptions extends BatchFlags {
  confidence?: boolean;
  reveal?: boolean;
  pdfPassword?: string;
}

/**
 * Runs a JSON-returning service on a local file and prints its result; `exitCode` may set the
 * exit status from the result. No card of the kind: NOTHING_FOUND_EXIT.
 */
export async function printServiceJson<T extends object>(
  input: string,
  options: { pdfPassword?: string },
  service: (upload: UploadedDocument) => Promise<T>,
  exitCode: (result: T) => number = () => 0,
): Promise<void> {
  const bytes = await fs.readFile(input);
  try {
    const result = await service(localUpload(input, bytes, options.pdfPassword));
    console.log(JSON.stringify(result, null, 2));
    process.exitCode = exitCode(result);
  } catch (error) {
    if (!(error instanceof NoDocumentError)) throw error;
    console.error(error.message);
    process.exitCode = NOTHING_FOUND_EXIT;
  } finally {
    await closeEngines();
  }
}

/** A command whose service answers JSON, on one file or in the folder mode. */
export interface JsonCommand<T extends object> {
  readonly name: string;
  /** `<input name><suffix>.json` in the folder mode. */
  readonly suffix: string;
  readonly words: BatchWords;
  /** The options as given, for the manifest and `--resume`'s check. */
  readonly options: Readonly<Record<string, string>>;
  readonly service: (context: ServiceContext, upload: UploadedDocument) => Promise<T>;
  /** The single-file exit status from the result. */
  readonly exitCode?: (result: T) => number;
  /** The manifest row's fields from the result (verify's verdict). */
  readonly fields?: (result: T) => Readonly<Record<string, unknown>>;
}

/**
 * One file: the JSON on stdout, as always. Otherwise the folder mode: each result written as
 * `<name><suffix>.json`; a file holding no card of the kind is `no_document_detected` (like a
 * masking's nothing found: not a failure) and has no output.
 */
export async function runJsonCommand<T extends object>(
  paths: readonly string[],
  flags: BatchFlags,
  command: JsonCommand<T>,
): Promise<void> {
  const settings = loadSettings();
  const [only] = paths;
  if (only !== undefined && !(await wantsFolderMode(paths, flags, false))) {
    const context = serviceContext(settings);
    await printServiceJson(
      only,
      flags,
      (upload) => command.service(context, upload),
      command.exitCode,
    );
    return;
  }
  // One context and one OCR engine for the whole run, whatever --jobs says.
  const context = serviceContext(batchSettings(settings, flags));
  try {
    process.exitCode = await runBatch(paths, flags, {
      name: command.name,
      words: command.words,
      formats: INDIAN_INPUTS,
      options: command.options,
      countsPages: false,
      failedFields: {},
      process: async (upload) => {
        try {
          const result = await command.service(context, upload);
          return {
            status: 'done',
            output: {
              bytes: `${JSON.stringify(result, null, 2)}\n`,
              suffix: command.suffix,
              extension: 'json',
            },
            pages: null,
            fields: command.fields?.(result) ?? {},
          };
        } catch (error) {
          if (!(error instanceof NoDocumentError)) throw error;
          return { status: 'nothing_found', output: null, pages: null, fields: {} };
        }
      },
    });
  } finally {
    await closeEngines();
  }
}

/** `-o OUTDIR` and the folder mode's flags of a JSON command (no `-o FILE`: one file prints). */
export function addJsonFolderOptions(command: Command): Command {
  return command
    .option('-o, --output <folder>', 'folder mode: the folder the JSON results are written to')
    .option(
      '--jobs <n>',
      'folder mode: files processed at once (default: the number of CPUs)',
      jobCount,
    )
    .option('--resume', 'folder mode: skip the files OUTDIR/manifest.json lists as done');
}

const EXTRACTED: BatchWords = { done: 'extracted', nothingFound: 'no_document_detected' };

export function registerExtractCommands(program: Command): void {
  addJsonFolderOptions(
    program
      .command('extract-aadhaar <paths...>')
      .description(
        'read the fields of Aadhaar cards in local JPEG, PNG or PDF files; JSON on stdout (one file) or in -o OUTDIR',
      ),
  )
    .option('--confidence', 'add the per-field confidence object')
    .option('--reveal', 'print the full Aadhaar number (the API allows this only to entitled keys)')
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (paths: string[], options: ExtractOptions) => {
      const extract = {
        includeConfidence: options.confidence === true,
        reveal: options.reveal === true,
      };
      await runJsonCommand(paths, options, {
        name: 'extract-aadhaar',
        suffix: '_aadhaar',
        words: EXTRACTED,
        options: {
          include_confidence: String(extract.includeConfidence),
          reveal_aadhaar_number: String(extract.reveal),
        },
        service: (context, upload) => extractAadhaarFile(context, upload, extract),
      });
    });
  addJsonFolderOptions(
    program
      .command('extract-pan <paths...>')
      .description(
        'read the fields of PAN cards in local JPEG, PNG or PDF files; JSON on stdout (one file) or in -o OUTDIR',
      ),
  )
    .option('--confidence', 'add the per-field confidence object')
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (paths: string[], options: ExtractOptions) => {
      const includeConfidence = options.confidence === true;
      await runJsonCommand(paths, options, {
        name: 'extract-pan',
        suffix: '_pan',
        words: EXTRACTED,
        options: { include_confidence: String(includeConfidence) },
        service: (context, upload) => extractPanFile(context, upload, includeConfidence),
      });
    });
}
