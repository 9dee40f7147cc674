/**
 * `parda mask-aadhaar IN [-o OUT]`: the same service as the API, on a local file, no key.
 * Exit status: 0 masked, 3 nothing found (the output is then a copy of the input), 1 error.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { loadSettings } from '../config/settings.js';
import { EXTENSIONS, type OutputFormat } from '../documents/writers.js';
import { serviceContext } from '../services/context.js';
import { closeEngines } from '../services/engines.js';
import { maskAadhaarFile, type MaskQr } from '../services/mask-aadhaar.js';

export const NOTHING_FOUND_EXIT = 3;

interface MaskOptions {
  output?: string;
  outputFormat: OutputFormat;
  maskQr: MaskQr;
  pdfPassword?: string;
}

function oneOf<T extends string>(allowed: readonly T[]) {
  return (raw: string): T => {
    if (!(allowed as readonly string[]).includes(raw)) {
      throw new Error(`expected one of ${allowed.join(', ')}`);
    }
    return raw as T;
  };
}

export function registerMaskCommand(program: Command): void {
  program
    .command('mask-aadhaar <input>')
    .description('mask Aadhaar numbers in a local JPEG, PNG or PDF (first eight digits covered)')
    .option('-o, --output <file>', 'where to write the result (default: <input>_masked.<ext>)')
    .option('--output-format <format>', 'same, jpg or pdf', oneOf(['same', 'jpg', 'pdf']), 'same')
    .option('--mask-qr <which>', 'xml (legacy XML QR codes) or all', oneOf(['xml', 'all']), 'xml')
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (input: string, options: MaskOptions) => {
      const settings = loadSettings();
      const bytes = await fs.readFile(input);
      try {
        const result = await maskAadhaarFile(
          serviceContext(settings),
          {
            bytes,
            filename: path.basename(input),
            ...(options.pdfPassword === undefined ? {} : { pdfPassword: options.pdfPassword }),
          },
          { outputFormat: options.outputFormat, maskQr: options.maskQr },
        );
        const parsed = path.parse(input);
        const output =
          options.output ??
          path.join(parsed.dir, `${parsed.name}_masked.${EXTENSIONS[result.format]}`);
        await fs.writeFile(output, result.bytes);
        if (result.maskedCount === 0) {
          console.error(`Nothing masked: no Aadhaar found; ${output} is an unchanged copy.`);
          process.exitCode = NOTHING_FOUND_EXIT;
        } else {
          console.log(`Masked ${result.maskedCount} region(s): ${output}`);
        }
      } finally {
        await closeEngines();
      }
    });
}
