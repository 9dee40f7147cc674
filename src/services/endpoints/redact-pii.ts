/** redact-pii (POST /api/v1/redact-pii, `parda redact-pii`): Indian identifiers covered whole. */
import type { IndianType } from '../../identifiers/in/redact-pii-rules.js';
import { resolveTypes, type RedactResult } from '../redact-pii.js';
import type { FileEndpoint, ListField } from './file-endpoint.js';

export const REDACT_PII_FIELDS = {
  /** Names from /api/v1/pii-types; empty or absent: the types on by default. */
  types: { type: 'string', format: 'comma-separated' },
} as const satisfies { types: ListField };

export const REDACT_PII: FileEndpoint<
  typeof REDACT_PII_FIELDS,
  { types: readonly IndianType[] },
  RedactResult
> = {
  fields: REDACT_PII_FIELDS,
  parse: (values) => ({ types: resolveTypes(values.get('types')) }),
  run: (services, upload, options) => services.redactPii(upload, options),
  summarise: (result) => ({
    covered: result.redactedCount,
    unverified: result.unverifiedCount,
    perType: result.typeCounts,
  }),
  suffix: '_redacted',
};
