/**
 * `parda mask-aadhaar PATH... [-o OUT]` and `parda mask-pan PATH... [-o OUT]`: the masking
 * endpoints (services/endpoints/mask.ts) on local files, no key. One file: exit status 0
 * masked, 3 nothing found (the output is then a copy of the input), 1 error. Several, folders
 * or patterns: the folder mode (batch-run.ts), with the bulk manifest's words.
 */
import type { Command } from 'commander';
import type { OutputFormat } from '../domain/formats.js';
import {
  MASK_AADHAAR,
  MASK_OPTION_FIELDS,
  MASK_PAN,
  type MaskingEndpoint,
} from '../services/endpoints/mask.js';
import type { MaskQr, MaskResult } from '../services/mask-document.js';
import {
  addOutputOptions,
  fieldValues,
  runFileCommand,
  type BatchShape,
  type FileFlags,
} from './file-command.js';
import { INDIAN_INPUTS } from '../domain/formats.js';
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
    description:
      'mask Aadhaar numbers in local JPEG, PNG or PDF files or folders (first eight digits covered)',
    noun: 'Aadhaar',
    qrHelp: 'xml (legacy XML QR codes and undecodable ones) or all',
    endpoint: MASK_AADHAAR,
  },
  {
    name: 'mask-pan',
    description:
      'mask PAN numbers in local JPEG, PNG or PDF files or folders (middle seven characters covered)',
    noun: 'PAN',
    qrHelp: 'xml (QR codes holding a PAN and undecodable ones) or all',
    endpoint: MASK_PAN,
  },
];

const { output_format: OUTPUT_FORMAT, mask_qr: MASK_QR } = MASK_OPTION_FIELDS;

/** The bulk masking manifest's words and fields (api/routes/bulk.ts). */
const MASK_BATCH: BatchShape<MaskResult> = {
  words: { done: 'masked', nothingFound: 'no_number_found' },
  countField: 'masked_count',
  formats: INDIAN_INPUTS,
  pages: (result) => result.pages,
  details: (result) => ({ residual_check: result.residualCheck }),
};

function registerOne(program: Command, command: MaskCommand): void {
  addOutputOptions(
    program.command(`${command.name} <paths...>`).description(command.description),
    '_masked',
  )
    .option(
      '--output-format <format>',
      'same, jpg or pdf',
      oneOf(OUTPUT_FORMAT.enum),
      OUTPUT_FORMAT.default,
    )
    .option('--mask-qr <which>', command.qrHelp, oneOf(MASK_QR.enum), MASK_QR.default)
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (paths: string[], flags: MaskFlags) => {
      await runFileCommand(paths, flags, {
        name: command.name,
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
        batch: MASK_BATCH,
      });
    });
}

export function registerMaskCommand(program: Command): void {
  for (const command of COMMANDS) registerOne(program, command);
}
