/**
 * Global redaction (POST /api/v1/global/redact and its batch route, `parda redact`): global
 * identifiers redacted in one of five modes. Rule plugins must be loaded before `parse`, since
 * they add entity types.
 */
import { MODES, type Mode } from '../../redaction/operators/types.js';
import {
  MASK_KEEP_DEFAULT,
  MASK_KEEP_MAX,
  resolveCountries,
  resolveEntityTypes,
  resolveMaskKeep,
  resolveMode,
} from '../global-options.js';
import type { GlobalRedactOptions, GlobalRedactResult } from '../redact-global.js';
import {
  readFlag,
  type ChoiceField,
  type FileEndpoint,
  type FlagField,
  type ListField,
  type WholeNumberField,
} from './file-endpoint.js';

export const GLOBAL_REDACT_FIELDS = {
  mode: { type: 'string', enum: MODES, default: 'box' },
  /** Names from /global/entity-types; empty or absent: the types on by default. */
  entity_types: { type: 'string', format: 'comma-separated' },
  /** ISO-2 codes limiting the country-specific types. */
  countries: { type: 'string', format: 'comma-separated' },
  /** Characters kept by the mask mode. */
  mask_keep: { type: 'integer', minimum: 0, maximum: MASK_KEEP_MAX, default: MASK_KEEP_DEFAULT },
  strip_metadata: { type: 'boolean', default: true },
} as const satisfies {
  mode: ChoiceField<Mode>;
  entity_types: ListField;
  countries: ListField;
  mask_keep: WholeNumberField;
  strip_metadata: FlagField;
};

export const GLOBAL_REDACT: FileEndpoint<
  typeof GLOBAL_REDACT_FIELDS,
  GlobalRedactOptions,
  GlobalRedactResult
> = {
  fields: GLOBAL_REDACT_FIELDS,
  // The service resolvers refuse a bad value with its own 422 code (invalid_mode, ...).
  parse: (values) => {
    const countries = resolveCountries(values.get('countries'));
    return {
      rules: resolveEntityTypes(values.get('entity_types'), countries),
      countries,
      mode: resolveMode(
        values.get('mode'),
        GLOBAL_REDACT_FIELDS.mode.enum,
        GLOBAL_REDACT_FIELDS.mode.default,
      ),
      maskKeep: resolveMaskKeep(values.get('mask_keep')),
      stripMetadata: readFlag(values, 'strip_metadata', GLOBAL_REDACT_FIELDS.strip_metadata),
    };
  },
  run: (services, upload, options) => services.redactGlobal(upload, options),
  summarise: (result) => ({
    covered: result.entitiesFound,
    // Global redaction has no fail-closed covers: every value it covers validated.
    unverified: 0,
    perType: result.report.summary,
  }),
  suffix: '_redacted',
};
