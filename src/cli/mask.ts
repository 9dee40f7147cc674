/**
 * `parda mask-aadhaar IN [-o OUT]` and `parda mask-pan IN [-o OUT]`: the masking endpoints
 * (services/endpoints/mask.ts) on a local file, no key.
 * Exit status: 0 masked, 3 nothing found (the output is then a copy of the input), 1 error.
 */
import type { Command } from 'commander';
import type { OutputFormat } from '../domain/formats.js';
import {
  MASK_AADHAAR,
  MASK_OPTION_FIELDS,
  MASK_PAN,
  type MaskingEndpoint,
} from '../services/endpoints/mask.js';
import type { MaskQr } from '../services/mask-document.js';
import { fieldValues, runFileCommand, type FileFlags } from './file-command.js';
import { oneOf } from './parse.js';

interface MaskFlags extends FileFlags {
  outputFormat: OutputFormat;
  maskQr: MaskQr;
}

interface MaskCommand {
  readonly name: string;
  readonly description: string;
  /** What the command looks for, for the nothing-found message ("no Aadhaar found"). */
  readonly noun: string;
  readonly qrHelp: string;
  readonly endpoint: MaskingEndpoint;
}

const COMMANDS: readonly MaskCommand[] = [
  {
    name: 'mask-aadhaar',
    description: 'mask Aadhaar numbers in a local JPEG, PNG or PDF (first eight digits covered)',
    noun: 'Aadhaar',
    qrHelp: 'xml (legacy XML QR codes and undecodable ones) or all',
    endpoint: MASK_AADHAAR,
  },
  {
    name: 'mask-pan',
    description: 'mask PAN numbers in a local JPEG, PNG or PDF (middle seven characters covered)',
    noun: 'PAN',
    qrHelp: 'xml (QR codes holding a PAN and undecodable ones) or all',
    endpoint: MASK_PAN,
  },
];

const { output_format: OUTPUT_FORMAT, mask_qr: MASK_QR } = MASK_OPTION_FIELDS;

function registerOne(program: Command, command: MaskCommand): void {
  program
    .command(`${command.name} <input>`)
    .description(command.description)
    .option('-o, --output <file>', 'where to write the result (default: <input>_masked.<ext>)')
    .option(
      '--output-format <format>',
      'same, jpg or pdf',
      oneOf(OUTPUT_FORMAT.enum),
      OUTPUT_FORMAT.default,
    )
    .option('--mask-qr <which>', command.qrHelp, oneOf(MASK_QR.enum), MASK_QR.default)
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (input: string, flags: MaskFlags) => {
      await runFileCommand(input, flags, {
        endpoint: command.endpoint,
        values: fieldValues({ output_format: flags.outputFormat, mask_qr: flags.maskQr }),
        done: (summary, output) => {
          const unverified =
            summary.unverified > 0
              ? ` (${summary.unverified} covered although the check digit failed)`
              : '';
          return `Masked ${summary.covered} region(s)${unverified}: ${output}`;
        },
        nothingFound: (output) =>
          `Nothing masked: no ${command.noun} found; ${output} is the same document written anew.`,
      });
    });
}

export function registerMaskCommand(program: Command): void {
  for (const command of COMMANDS) registerOne(program, command);
}
