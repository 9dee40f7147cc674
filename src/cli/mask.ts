/**
 * `parda mask-aadhaar IN [-o OUT]` and `parda mask-pan IN [-o OUT]`: the same services as the
 * API, on a local file, no key.
 * Exit status: 0 masked, 3 nothing found (the output is then a copy of the input), 1 error.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { loadSettings } from '../config/settings.js';
import { EXTENSIONS, type OutputFormat } from '../domain/formats.js';
import { serviceContext } from '../services/context.js';
import { closeEngines } from '../services/engines.js';
import type { ServiceContext, UploadedDocument } from '../services/context.js';
import { maskAadhaarFile } from '../services/mask-aadhaar.js';
import type { MaskQr, MaskResult } from '../services/mask-document.js';
import { maskPanFile } from '../services/mask-pan.js';

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

interface MaskCommand {
  readonly name: string;
  readonly description: string;
  /** What the command looks for, for the nothing-found message ("no Aadhaar found"). */
  readonly noun: string;
  readonly qrHelp: string;
  readonly mask: (
    context: ServiceContext,
    upload: UploadedDocument,
    options: { outputFormat: OutputFormat; maskQr: MaskQr },
  ) => Promise<MaskResult>;
}

const COMMANDS: readonly MaskCommand[] = [
  {
    name: 'mask-aadhaar',
    description: 'mask Aadhaar numbers in a local JPEG, PNG or PDF (first eight digits covered)',
    noun: 'Aadhaar',
    qrHelp: 'xml (legacy XML QR codes and undecodable ones) or all',
    mask: maskAadhaarFile,
  },
  {
    name: 'mask-pan',
    description: 'mask PAN numbers in a local JPEG, PNG or PDF (middle seven characters covered)',
    noun: 'PAN',
    qrHelp: 'xml (QR codes holding a PAN and undecodable ones) or all',
    mask: maskPanFile,
  },
];

function registerOne(program: Command, command: MaskCommand): void {
  program
    .command(`${command.name} <input>`)
    .description(command.description)
    .option('-o, --output <file>', 'where to write the result (default: <input>_masked.<ext>)')
    .option('--output-format <format>', 'same, jpg or pdf', oneOf(['same', 'jpg', 'pdf']), 'same')
    .option('--mask-qr <which>', command.qrHelp, oneOf(['xml', 'all']), 'xml')
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (input: string, options: MaskOptions) => {
      const settings = loadSettings();
      const bytes = await fs.readFile(input);
      try {
        const result = await command.mask(
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
          console.error(
            `Nothing masked: no ${command.noun} found; ${output} is the same document written anew.`,
          );
          process.exitCode = NOTHING_FOUND_EXIT;
        } else {
          const unverified =
            result.unverifiedCount > 0
              ? ` (${result.unverifiedCount} covered although the check digit failed)`
              : '';
          console.log(`Masked ${result.maskedCount} region(s)${unverified}: ${output}`);
        }
      } finally {
        await closeEngines();
      }
    });
}

export function registerMaskCommand(program: Command): void {
  for (const command of COMMANDS) registerOne(program, command);
}
