/**
 * `parda redact IN [-o OUT] [--mode] [--entity-types] [--countries] [--mask-keep]
 * [--keep-metadata]`: global redaction (POST /global/redact, services/endpoints/global-redact.ts)
 * of a local file, no key. Rule plugins named in PARDA_RULE_PLUGINS are loaded first. Exit
 * status: 0 redacted, 3 nothing found (the output is then the input, less its metadata unless
 * --keep-metadata), 1 error.
 */
import type { Command } from 'commander';
import { GLOBAL_REDACT, GLOBAL_REDACT_FIELDS } from '../services/endpoints/global-redact.js';
import { loadRulePlugins } from '../services/listings.js';
import { fieldValues, perTypeList, runFileCommand, type FileFlags } from './file-command.js';

interface GlobalRedactFlags extends FileFlags {
  mode?: string;
  entityTypes?: string;
  countries?: string;
  maskKeep?: string;
  keepMetadata?: boolean;
}

const { mode: MODE, mask_keep: MASK_KEEP } = GLOBAL_REDACT_FIELDS;

export function registerGlobalRedactCommand(program: Command): void {
  program
    .command('redact <input>')
    .description(
      'redact global identifiers in a local PDF, PNG, JPEG, WEBP, TIFF or BMP (a PDF keeps its text)',
    )
    .option('-o, --output <file>', 'where to write the result (default: <input>_redacted.<ext>)')
    .option(
      '--mode <mode>',
      `one of ${MODE.enum.join(', ')} (default ${MODE.default}; blur for images only)`,
    )
    .option('--entity-types <names>', 'comma-separated types (default: those on by default)')
    .option('--countries <codes>', 'ISO-2 codes limiting the country types')
    .option(
      '--mask-keep <n>',
      `characters kept by mask mode, ${MASK_KEEP.minimum}-${MASK_KEEP.maximum} (default ${MASK_KEEP.default})`,
    )
    .option('--keep-metadata', 'keep PDF information, XMP and image EXIF (stripped by default)')
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (input: string, flags: GlobalRedactFlags) => {
      await runFileCommand(input, flags, {
        endpoint: GLOBAL_REDACT,
        values: fieldValues({
          mode: flags.mode,
          entity_types: flags.entityTypes,
          countries: flags.countries,
          mask_keep: flags.maskKeep,
          strip_metadata: String(flags.keepMetadata !== true),
        }),
        prepare: (settings) => loadRulePlugins(settings.rulePlugins),
        done: (summary, output) =>
          `Redacted ${summary.covered} value(s) (${perTypeList(summary)}): ${output}`,
        nothingFound: (output) =>
          `Nothing redacted: no identifier found; ${output} holds the input.`,
      });
    });
}
