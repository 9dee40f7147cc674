/**
 * `parda redact IN [-o OUT] [--mode] [--entity-types] [--countries] [--mask-keep]
 * [--keep-metadata]`: global redaction (POST /global/redact) of a local file, no key. Rule
 * plugins named in PARDA_RULE_PLUGINS are loaded first. Exit status: 0 redacted, 3 nothing
 * found (the output is then the input, less its metadata unless --keep-metadata), 1 error.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { loadSettings } from '../config/settings.js';
import { EXTENSIONS } from '../domain/formats.js';
import { loadRulePlugins } from '../services/listings.js';
import { serviceContext } from '../services/context.js';
import { closeEngines } from '../services/engines.js';
import {
  MODES,
  resolveCountries,
  resolveEntityTypes,
  resolveMaskKeep,
  resolveMode,
} from '../services/global-options.js';
import { redactGlobalFile } from '../services/redact-global.js';
import { NOTHING_FOUND_EXIT } from './mask.js';

interface GlobalRedactCliOptions {
  output?: string;
  mode?: string;
  entityTypes?: string;
  countries?: string;
  maskKeep?: string;
  keepMetadata?: boolean;
  pdfPassword?: string;
}

export function registerGlobalRedactCommand(program: Command): void {
  program
    .command('redact <input>')
    .description(
      'redact global identifiers in a local PDF, PNG, JPEG, WEBP, TIFF or BMP (a PDF keeps its text)',
    )
    .option('-o, --output <file>', 'where to write the result (default: <input>_redacted.<ext>)')
    .option('--mode <mode>', `one of ${MODES.join(', ')} (default box; blur for images only)`)
    .option('--entity-types <names>', 'comma-separated types (default: those on by default)')
    .option('--countries <codes>', 'ISO-2 codes limiting the country types')
    .option('--mask-keep <n>', 'characters kept by mask mode, 0-8 (default 4)')
    .option('--keep-metadata', 'keep PDF information, XMP and image EXIF (stripped by default)')
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (input: string, options: GlobalRedactCliOptions) => {
      const settings = loadSettings();
      await loadRulePlugins(settings.rulePlugins);
      const countries = resolveCountries(options.countries);
      const redactOptions = {
        rules: resolveEntityTypes(options.entityTypes, countries),
        countries,
        mode: resolveMode(options.mode, MODES, 'box'),
        maskKeep: resolveMaskKeep(options.maskKeep),
        stripMetadata: options.keepMetadata !== true,
      };
      const bytes = await fs.readFile(input);
      try {
        const result = await redactGlobalFile(
          serviceContext(settings),
          {
            bytes,
            filename: path.basename(input),
            ...(options.pdfPassword === undefined ? {} : { pdfPassword: options.pdfPassword }),
          },
          redactOptions,
        );
        const parsed = path.parse(input);
        const output =
          options.output ??
          path.join(parsed.dir, `${parsed.name}_redacted.${EXTENSIONS[result.format]}`);
        await fs.writeFile(output, result.bytes);
        if (result.entitiesFound === 0) {
          console.error(`Nothing redacted: no identifier found; ${output} holds the input.`);
          process.exitCode = NOTHING_FOUND_EXIT;
        } else {
          const counts = Object.entries(result.report.summary)
            .map(([type, n]) => `${type} ${n}`)
            .join(', ');
          console.log(`Redacted ${result.entitiesFound} value(s) (${counts}): ${output}`);
        }
      } finally {
        await closeEngines();
      }
    });
}
