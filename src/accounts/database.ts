/**
 * Opens the accounts database named by a URL and brings its schema up to date.
 * `sqlite:///abs/path.db` (or `sqlite://:memory:`) uses better-sqlite3; `postgres://...` uses pg.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrationProvider, type DialectName } from './migrations.js';
import type { Database } from './schema.js';

export interface AccountsDatabase {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  close(): Promise<void>;
}

export class DatabaseUrlError extends Error {
  override name = 'DatabaseUrlError';
}

function sqlitePath(url: string): string {
  const rest = url.slice('sqlite://'.length);
  if (rest === ':memory:' || rest === '/:memory:') return ':memory:';
  if (!rest.startsWith('/')) {
    throw new DatabaseUrlError('a sqlite URL needs an absolute path: sqlite:///path/to/file.db');
  }
  return decodeURIComponent(rest);
}

function openSqlite(url: string): Kysely<Database> {
  const file = sqlitePath(url);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets `parda serve --workers N` and the CLI share one file; the busy timeout
  // makes a writer wait for the lock instead of failing under concurrency.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

function openPostgres(url: string): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

export async function migrateToLatest(db: Kysely<Database>, dialect: DialectName): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('database migration failed');
}

export async function openAccountsDatabase(
  url: string,
  options: { migrate?: boolean } = {},
): Promise<AccountsDatabase> {
  let dialect: DialectName;
  let db: Kysely<Database>;
  if (url.startsWith('sqlite://')) {
    dialect = 'sqlite';
    db = openSqlite(url);
  } else if (/^postgres(ql)?:\/\//.test(url)) {
    dialect = 'postgres';
    db = openPostgres(url);
  } else {
    throw new DatabaseUrlError('database URL must start with sqlite:// or postgres://');
  }
  try {
    if (options.migrate !== false) await migrateToLatest(db, dialect);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, dialect, close: () => db.destroy() };
}
