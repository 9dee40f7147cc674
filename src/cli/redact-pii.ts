/**
 * `parda redact-pii IN [-o OUT] [--types a,b]`: the /redact-pii endpoint
 * (services/endpoints/redact-pii.ts) on a local file, no key. Exit status: 0 redacted, 3 nothing
 * found (the output is then a copy of the input), 1 error (an unknown type among them).
 */
import type { Command } from 'commander';
import { REDACT_PII } from '../services/endpoints/redact-pii.js';
import { fieldValues, perTypeList, runFileCommand, type FileFlags } from './file-command.js';

interface RedactFlags extends FileFlags {
  types?: string;
}

export function registerRedactPiiCommand(program: Command): void {
  program
    .command('redact-pii <input>')
    .description('cover Indian identifiers whole in a local JPEG, PNG or PDF (a PDF is rasterised)')
    .option('-o, --output <file>', 'where to write the result (default: <input>_redacted.<ext>)')
    .option(
      '--types <names>',
      'comma-separated types (default: those on by default; see /api/v1/pii-types)',
    )
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (input: string, flags: RedactFlags) => {
      await runFileCommand(input, flags, {
        endpoint: REDACT_PII,
        values: fieldValues({ types: flags.types }),
        done: (summary, output) => {
          const unverified = summary.unverified > 0 ? `, ${summary.unverified} unverified` : '';
          return `Redacted ${summary.covered} region(s) (${perTypeList(summary)}${unverified}): ${output}`;
        },
        nothingFound: (output) =>
          `Nothing redacted: no identifier found; ${output} is the same document written anew.`,
      });
    });
}
