/**
 * `parda redact-pii IN [-o OUT] [--types a,b]`: the redaction service on a local file, no key.
 * Exit status: 0 redacted, 3 nothing found (the output is then a copy of the input), 1 error
 * (an unknown type among them).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { loadSettings } from '../config/settings.js';
import { EXTENSIONS } from '../domain/formats.js';
import { serviceContext } from '../services/context.js';
import { closeEngines } from '../services/engines.js';
import { redactPiiFile, resolveTypes } from '../services/redact-pii.js';
import { NOTHING_FOUND_EXIT } from './mask.js';

interface RedactOptions {
  output?: string;
  types?: string;
  pdfPassword?: string;
}

export function registerRedactCommand(program: Command): void {
  program
    .command('redact-pii <input>')
    .description('cover Indian identifiers whole in a local JPEG, PNG or PDF (a PDF is rasterised)')
    .option('-o, --output <file>', 'where to write the result (default: <input>_redacted.<ext>)')
    .option(
      '--types <names>',
      'comma-separated types (default: those on by default; see /api/v1/pii-types)',
    )
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (input: string, options: RedactOptions) => {
      const types = resolveTypes(options.types);
      const bytes = await fs.readFile(input);
      try {
        const result = await redactPiiFile(
          serviceContext(loadSettings()),
          {
            bytes,
            filename: path.basename(input),
            ...(options.pdfPassword === undefined ? {} : { pdfPassword: options.pdfPassword }),
          },
          types,
        );
        const parsed = path.parse(input);
        const output =
          options.output ??
          path.join(parsed.dir, `${parsed.name}_redacted.${EXTENSIONS[result.format]}`);
        await fs.writeFile(output, result.bytes);
        if (result.redactedCount === 0) {
          console.error(
            `Nothing redacted: no identifier found; ${output} is the same document written anew.`,
          );
          process.exitCode = NOTHING_FOUND_EXIT;
        } else {
          const counts = Object.entries(result.typeCounts)
            .map(([type, n]) => `${type} ${n}`)
            .join(', ');
          const unverified =
            result.unverifiedCount > 0 ? `, ${result.unverifiedCount} unverified` : '';
          console.log(
            `Redacted ${result.redactedCount} region(s) (${counts}${unverified}): ${output}`,
          );
        }
      } finally {
        await closeEngines();
      }
    });
}
