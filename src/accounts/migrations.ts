/**
 * Versioned schema migrations. Append new ones; never change the SQL of one that has shipped.
 * Written with Kysely's schema builder so that one list serves SQLite and PostgreSQL.
 */
import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** A plain (not unique) index on a table's columns, in the order given. */
async function createIndex(
  db: Kysely<unknown>,
  name: string,
  table: string,
  columns: string[],
): Promise<void> {
  await db.schema.createIndex(name).on(table).columns(columns).execute();
}

const initial = (dialect: DialectName): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('organisations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organisation_id', 'text', (c) =>
        c.notNull().references('organisations.id').onDelete('cascade'),
      )
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_last4', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) =>
        c.notNull().check(sql`status in ('active', 'disabled', 'revoked')`),
      )
      .addColumn('monthly_quota', 'integer', (c) => c.notNull().check(sql`monthly_quota >= 0`))
      .addColumn('requests_per_minute', 'integer', (c) =>
        c.notNull().check(sql`requests_per_minute > 0`),
      )
      .addColumn('reveal_entitled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('paid_until', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await createIndex(db, 'api_keys_organisation_idx', 'api_keys', ['organisation_id']);

    await db.schema
      .createTable('usage_counters')
      .addColumn('key_id', 'text', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
      .addColumn('month', 'text', (c) => c.notNull())
      .addColumn('documents_used', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`documents_used >= 0`),
      )
      .addPrimaryKeyConstraint('usage_counters_pk', ['key_id', 'month'])
      .execute();

    await db.schema
      .createTable('usage_records')
      // SQLite's INTEGER PRIMARY KEY is its rowid and numbers itself; PostgreSQL needs an identity.
      .addColumn('id', dialect === 'postgres' ? 'bigint' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey(),
      )
      .addColumn('request_id', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text')
      .addColumn('organisation_id', 'text')
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('endpoint', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer', (c) => c.notNull())
      // A batch can exceed 2^31 bytes; pg returns bigint as a string, which readers convert.
      .addColumn('bytes_in', 'bigint', (c) => c.notNull())
      .addColumn('processing_ms', 'integer', (c) => c.notNull())
      .addColumn('documents_charged', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await createIndex(db, 'usage_records_created_idx', 'usage_records', ['created_at']);
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['usage_records', 'usage_counters', 'api_keys', 'organisations']) {
      await db.schema.dropTable(table).execute();
    }
  },
});

/**
 * The `error` code of each refused or failed request (the body the client got), for the usage
 * page's errors by code; and an index for one key's records over a period.
 */
const usageErrorCode: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('usage_records').addColumn('error_code', 'text').execute();
    await createIndex(db, 'usage_records_key_created_idx', 'usage_records', [
      'key_id',
      'created_at',
    ]);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('usage_records_key_created_idx').execute();
    await db.schema.alterTable('usage_records').dropColumn('error_code').execute();
  },
};

export function migrationProvider(dialect: DialectName): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '0001_initial': initial(dialect),
    '0002_usage_error_code': usageErrorCode,
  };
  return { getMigrations: () => Promise.resolve(migrations) };
}
