/**
 * The database backends a store test runs against: SQLite always, and PostgreSQL when
 * PARDA_TEST_POSTGRES_URL is set (CI sets it). Each opened database is fresh: a temporary
 * SQLite file, or a new PostgreSQL schema dropped again on cleanup.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openAccountsDatabase, type AccountsDatabase } from '../../src/accounts/database.js';

export interface TestDatabase extends AccountsDatabase {
  readonly url: string;
  cleanup(): Promise<void>;
}

export interface Backend {
  readonly name: string;
  open(): Promise<TestDatabase>;
}

async function openSqlite(): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-db-'));
  const url = `sqlite:///${path.join(dir, 'accounts.db')}`;
  const database = await openAccountsDatabase(url);
  return {
    ...database,
    url,
    async cleanup() {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openPostgres(baseUrl: string): Promise<TestDatabase> {
  const schema = `parda_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const database = await openAccountsDatabase(url.toString());
  return {
    ...database,
    url: url.toString(),
    async cleanup() {
      await database.close();
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

export function backends(): Backend[] {
  const list: Backend[] = [{ name: 'sqlite', open: openSqlite }];
  const postgres = process.env['PARDA_TEST_POSTGRES_URL'];
  if (postgres) list.push({ name: 'postgres', open: () => openPostgres(postgres) });
  return list;
}
