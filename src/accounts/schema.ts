/**
 * Table types of the accounts database, as Kysely sees them. Booleans are stored as
 * integers (0/1) and timestamps as ISO-8601 text so that SQLite and PostgreSQL read alike.
 */
import type { ColumnType, Generated } from 'kysely';

export type KeyStatus = 'active' | 'disabled' | 'revoked';

export interface OrganisationsTable {
  id: string;
  name: string;
  created_at: string;
}

export interface ApiKeysTable {
  /** Public id shown by `parda keys list`; safe to print and log. */
  id: string;
  organisation_id: string;
  prefix: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  key_hash: string;
  /** Last four characters, so an operator can tell keys apart. */
  key_last4: string;
  status: KeyStatus;
  monthly_quota: number;
  requests_per_minute: number;
  reveal_entitled: number;
  /** Last day (UTC, `YYYY-MM-DD`) of the paid period; null means no expiry. */
  paid_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface UsageCountersTable {
  key_id: string;
  /** Calendar month in UTC, `YYYY-MM`. */
  month: string;
  documents_used: number;
}

export interface UsageRecordsTable {
  id: Generated<number>;
  request_id: string;
  key_id: string | null;
  organisation_id: string | null;
  method: string;
  /** The route pattern (never the raw URL with its query). */
  endpoint: string;
  status_code: number;
  /** bigint: PostgreSQL returns it as a string. */
  bytes_in: ColumnType<number | string, number, never>;
  processing_ms: number;
  documents_charged: number;
  /** The API's `error` code when the request was refused or failed; null otherwise. */
  error_code: string | null;
  created_at: string;
}

export interface Database {
  organisations: OrganisationsTable;
  api_keys: ApiKeysTable;
  usage_counters: UsageCountersTable;
  usage_records: UsageRecordsTable;
}
