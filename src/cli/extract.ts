/**
 * `parda extract-aadhaar FILE` and `parda extract-pan FILE`: the same services as the API, on a
 * local file, no key; the JSON response on stdout. Exit status: 0 read, 3 no card of the kind
 * found, 1 error.
 */
import fs from 'node:fs/promises';
import type { Command } from 'commander';
import { loadSettings } from '../config/settings.js';
import { serviceContext, type UploadedDocument } from '../services/context.js';
import { closeEngines } from '../services/engines.js';
import { NoDocumentError } from '../services/errors.js';
import { extractAadhaarFile } from '../services/extract-aadhaar.js';
import { extractPanFile } from '../services/extract-pan.js';
import { localUpload, NOTHING_FOUND_EXIT } from './file-command.js';

interface ExtractOptions {
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

export function registerExtractCommands(program: Command): void {
  program
    .command('extract-aadhaar <input>')
    .description('read the fields of an Aadhaar card in a local JPEG, PNG or PDF; JSON on stdout')
    .option('--confidence', 'add the per-field confidence object')
    .option('--reveal', 'print the full Aadhaar number (the API allows this only to entitled keys)')
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (input: string, options: ExtractOptions) => {
      const context = serviceContext(loadSettings());
      await printServiceJson(input, options, (upload) =>
        extractAadhaarFile(context, upload, {
          includeConfidence: options.confidence === true,
          reveal: options.reveal === true,
        }),
      );
    });
  program
    .command('extract-pan <input>')
    .description('read the fields of a PAN card in a local JPEG, PNG or PDF; JSON on stdout')
    .option('--confidence', 'add the per-field confidence object')
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (input: string, options: ExtractOptions) => {
      const context = serviceContext(loadSettings());
      await printServiceJson(input, options, (upload) =>
        extractPanFile(context, upload, options.confidence === true),
      );
    });
}
