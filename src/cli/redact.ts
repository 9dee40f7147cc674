/**
 * `parda redact PATH... [-o OUT] [--mode] [--entity-types] [--countries] [--mask-keep]
 * [--keep-metadata]`: global redaction (POST /global/redact, services/endpoints/global-redact.ts)
 * of local files, no key. Rule plugins named in PARDA_RULE_PLUGINS are loaded first. One file:
 * exit status 0 redacted, 3 nothing found (the output is then the input, less its metadata
 * unless --keep-metadata), 1 error. Several, folders or patterns: the folder mode, with the
 * global batch's words.
 */
import type { Command } from 'commander';
import { GLOBAL_REDACT, GLOBAL_REDACT_FIELDS } from '../services/endpoints/global-redact.js';
import { loadRulePlugins } from '../services/listings.js';
import type { GlobalRedactResult } from '../services/redact-global.js';
import {
  addOutputOptions,
  fieldValues,
  perTypeList,
  runFileCommand,
  type BatchShape,
  type FileFlags,
} from './file-command.js';
import { GLOBAL_INPUTS } from '../domain/formats.js';

interface GlobalRedactFlags extends FileFlags {
  mode?: string;
  entityTypes?: string;
  countries?: string;
  maskKeep?: string;
  keepMetadata?: boolean;
}

const { mode: MODE, mask_keep: MASK_KEEP } = GLOBAL_REDACT_FIELDS;

/** The global batch's words (api/routes/global-redact.ts), with the anonymise manifest's fields. */
const GLOBAL_BATCH: BatchShape<GlobalRedactResult> = {
  words: { done: 'redacted', nothingFound: 'nothing_found' },
  countField: 'redacted_count',
  formats: GLOBAL_INPUTS,
  pages: (result) => result.report.pages,
  details: (_result, summary) => ({ types: summary.perType }),
};

export function registerGlobalRedactCommand(program: Command): void {
  addOutputOptions(
    program
      .command('redact <paths...>')
      .description(
        'redact global identifiers in local PDF, PNG, JPEG, WEBP, TIFF or BMP files or folders (a PDF keeps its text)',
      ),
    '_redacted',
  )
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
    .action(async (paths: string[], flags: GlobalRedactFlags) => {
      await runFileCommand(paths, flags, {
        name: 'redact',
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
        batch: GLOBAL_BATCH,
      });
    });
}
