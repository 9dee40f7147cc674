/**
 * `parda redact-pii PATH... [-o OUT] [--types a,b]`: the /redact-pii endpoint
 * (services/endpoints/redact-pii.ts) on local files, no key. One file: exit status 0 redacted,
 * 3 nothing found (the output is then a copy of the input), 1 error (an unknown type among
 * them). Several, folders or patterns: the folder mode, with the anonymise manifest's words.
 */
import type { Command } from 'commander';
import { REDACT_PII } from '../services/endpoints/redact-pii.js';
import type { RedactResult } from '../services/redact-pii.js';
import {
  addOutputOptions,
  fieldValues,
  perTypeList,
  runFileCommand,
  type BatchShape,
  type FileFlags,
} from './file-command.js';
import { INDIAN_INPUTS } from '../domain/formats.js';

interface RedactFlags extends FileFlags {
  types?: string;
}

/** The bulk anonymise manifest's words and fields (api/routes/bulk.ts). */
const REDACT_PII_BATCH: BatchShape<RedactResult> = {
  words: { done: 'redacted', nothingFound: 'nothing_found' },
  countField: 'redacted_count',
  formats: INDIAN_INPUTS,
  pages: (result) => result.pages,
  details: (result, summary) => ({
    residual_check: result.residualCheck,
    types: summary.perType,
  }),
};

export function registerRedactPiiCommand(program: Command): void {
  addOutputOptions(
    program
      .command('redact-pii <paths...>')
      .description(
        'cover Indian identifiers whole in local JPEG, PNG or PDF files or folders (a PDF is rasterised)',
      ),
    '_redacted',
  )
    .option(
      '--types <names>',
      'comma-separated types (default: those on by default; see /api/v1/pii-types)',
    )
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (paths: string[], flags: RedactFlags) => {
      await runFileCommand(paths, flags, {
        name: 'redact-pii',
        endpoint: REDACT_PII,
        values: fieldValues({ types: flags.types }),
        done: (summary, output) => {
          const unverified = summary.unverified > 0 ? `, ${summary.unverified} unverified` : '';
          return `Redacted ${summary.covered} region(s) (${perTypeList(summary)}${unverified}): ${output}`;
        },
        nothingFound: (output) =>
          `Nothing redacted: no identifier found; ${output} is the same document written anew.`,
        batch: REDACT_PII_BATCH,
      });
    });
}
