/**
 * The accounts store: organisations, keys, monthly usage counters and the usage log.
 * One implementation over Kysely serves SQLite and PostgreSQL. Nothing here ever sees a
 * document: the usage log holds endpoint, sizes, time, status and counts only.
 */
import crypto from 'node:crypto';
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import { monthOf } from './calendar.js';
import { generateKey, generateKeyId, hashKey, hashesEqual, looksLikeKey } from './keys.js';
import type { ApiKeysTable, Database, KeyStatus } from './schema.js';

export interface ApiKey {
  readonly id: string;
  readonly organisationId: string;
  readonly organisationName: string;
  readonly prefix: string;
  readonly last4: string;
  readonly status: KeyStatus;
  readonly monthlyQuota: number;
  readonly requestsPerMinute: number;
  readonly revealEntitled: boolean;
  readonly paidUntil: string | null;
  readonly createdAt: string;
}

export interface NewKey {
  readonly organisation: string;
  readonly monthlyQuota: number;
  readonly requestsPerMinute: number;
  readonly revealEntitled?: boolean;
  readonly prefix?: string;
  readonly paidUntil?: string | null;
}

export interface KeyChanges {
  readonly monthlyQuota?: number;
  readonly requestsPerMinute?: number;
  readonly revealEntitled?: boolean;
  readonly paidUntil?: string | null;
}

export interface QuotaSnapshot {
  readonly limit: number;
  readonly used: number;
  readonly remaining: number;
}

export interface UsageRecord {
  readonly requestId: string;
  readonly keyId: string | null;
  readonly organisationId: string | null;
  readonly method: string;
  readonly endpoint: string;
  readonly statusCode: number;
  readonly bytesIn: number;
  readonly processingMs: number;
  readonly documentsCharged: number;
  /** The `error` code of the body sent when the request was refused or failed. */
  readonly errorCode?: string | null;
  readonly at: Date;
}

export interface UsageSummaryRow {
  readonly organisation: string | null;
  readonly requests: number;
  readonly succeeded: number;
  readonly clientErrors: number;
  readonly serverErrors: number;
  readonly documentsCharged: number;
  readonly bytesIn: number;
  readonly averageMs: number;
}

/** One UTC day of one key's usage log. */
export interface KeyUsageDay {
  /** `YYYY-MM-DD`, UTC. */
  readonly date: string;
  readonly requests: number;
  readonly documents: number;
  /** Requests answered with a status of 400 or above. */
  readonly errors: number;
}

export interface KeyUsage {
  /** Every day of the period, oldest first, days without requests included as zeros. */
  readonly days: readonly KeyUsageDay[];
  /**
   * The refused and failed requests of the period by `error` code, most frequent first;
   * `http_<status>` for a record that holds no code (written before codes were kept).
   */
  readonly errorsByCode: readonly { readonly error: string; readonly count: number }[];
}

export class KeyNotFoundError extends Error {
  override name = 'KeyNotFoundError';
}

export class KeyStateError extends Error {
  override name = 'KeyStateError';
}

const DAY_MS = 86_400_000;

type KeyRow = Selectable<ApiKeysTable> & { organisation_name: string };

function toApiKey(row: KeyRow): ApiKey {
  return {
    id: row.id,
    organisationId: row.organisation_id,
    organisationName: row.organisation_name,
    prefix: row.prefix,
    last4: row.key_last4,
    status: row.status,
    monthlyQuota: row.monthly_quota,
    requestsPerMinute: row.requests_per_minute,
    revealEntitled: row.reveal_entitled === 1,
    paidUntil: row.paid_until,
    createdAt: row.created_at,
  };
}

export class AccountStore {
  constructor(private readonly db: Kysely<Database>) {}

  private selectKeys() {
    return this.db
      .selectFrom('api_keys')
      .innerJoin('organisations', 'organisations.id', 'api_keys.organisation_id')
      .selectAll('api_keys')
      .select('organisations.name as organisation_name');
  }

  private async ensureOrganisation(name: string, now: string): Promise<string> {
    await this.db
      .insertInto('organisations')
      .values({ id: `org_${crypto.randomUUID()}`, name, created_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const org = await this.db
      .selectFrom('organisations')
      .select('id')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return org.id;
  }

  /** Creates a key (and its organisation when new). The plaintext key is returned once. */
  async createKey(spec: NewKey, now = new Date()): Promise<{ key: string; record: ApiKey }> {
    const at = now.toISOString();
    const organisationId = await this.ensureOrganisation(spec.organisation, at);
    const key = generateKey(spec.prefix);
    const id = generateKeyId();
    await this.db
      .insertInto('api_keys')
      .values({
        id,
        organisation_id: organisationId,
        prefix: key.slice(0, key.indexOf('_live_')),
        key_hash: hashKey(key),
        key_last4: key.slice(-4),
        status: 'active',
        monthly_quota: spec.monthlyQuota,
        requests_per_minute: spec.requestsPerMinute,
        reveal_entitled: spec.revealEntitled ? 1 : 0,
        paid_until: spec.paidUntil ?? null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return { key, record: await this.getKey(id) };
  }

  async getKey(id: string): Promise<ApiKey> {
    const row = await this.selectKeys().where('api_keys.id', '=', id).executeTakeFirst();
    if (!row) throw new KeyNotFoundError('no such key');
    return toApiKey(row);
  }

  /** Finds a key by its public id or by the key itself (as the CLI accepts either). */
  async resolveKey(reference: string): Promise<ApiKey> {
    if (!looksLikeKey(reference)) return this.getKey(reference);
    const found = await this.findByKey(reference);
    if (!found) throw new KeyNotFoundError('no such key');
    return found;
  }

  /** Looks a presented key up by its hash. Returns revoked keys too; callers decide. */
  async findByKey(presented: string): Promise<ApiKey | null> {
    if (!looksLikeKey(presented)) return null;
    const hash = hashKey(presented);
    const row = await this.selectKeys().where('api_keys.key_hash', '=', hash).executeTakeFirst();
    // The index lookup already matched; the constant-time check keeps the comparison itself
    // free of timing differences should the lookup ever become a scan.
    if (!row || !hashesEqual(row.key_hash, hash)) return null;
    return toApiKey(row);
  }

  async listKeys(organisation?: string): Promise<ApiKey[]> {
    let query = this.selectKeys().orderBy('api_keys.created_at').orderBy('api_keys.id');
    if (organisation !== undefined) query = query.where('organisations.name', '=', organisation);
    return (await query.execute()).map(toApiKey);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  async countKeys(): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async setStatus(id: string, status: KeyStatus, now = new Date()): Promise<ApiKey> {
    const current = await this.getKey(id);
    if (current.status === 'revoked' && status !== 'revoked') {
      throw new KeyStateError('a revoked key cannot be enabled or disabled; create a new key');
    }
    await this.db
      .updateTable('api_keys')
      .set({ status, updated_at: now.toISOString() })
      .where('id', '=', id)
      .execute();
    return this.getKey(id);
  }

  async updateKey(id: string, changes: KeyChanges, now = new Date()): Promise<ApiKey> {
    await this.getKey(id);
    const values: Updateable<ApiKeysTable> = {
      updated_at: now.toISOString(),
    };
    if (changes.monthlyQuota !== undefined) values.monthly_quota = changes.monthlyQuota;
    if (changes.requestsPerMinute !== undefined) {
      values.requests_per_minute = changes.requestsPerMinute;
    }
    if (changes.revealEntitled !== undefined) {
      values.reveal_entitled = changes.revealEntitled ? 1 : 0;
    }
    if (changes.paidUntil !== undefined) values.paid_until = changes.paidUntil;
    await this.db.updateTable('api_keys').set(values).where('id', '=', id).execute();
    return this.getKey(id);
  }

  async quota(key: ApiKey, now = new Date()): Promise<QuotaSnapshot> {
    const row = await this.db
      .selectFrom('usage_counters')
      .select('documents_used')
      .where('key_id', '=', key.id)
      .where('month', '=', monthOf(now))
      .executeTakeFirst();
    const used = row?.documents_used ?? 0;
    return { limit: key.monthlyQuota, used, remaining: Math.max(0, key.monthlyQuota - used) };
  }

  /**
   * Charges `documents` to this month's counter if, and only if, they fit under the key's
   * quota as it stands in the database. One conditional UPDATE: concurrent charges can
   * neither be lost nor overshoot the limit.
   */
  async charge(keyId: string, documents: number, now = new Date()): Promise<boolean> {
    if (documents <= 0) return true;
    const month = monthOf(now);
    await this.db
      .insertInto('usage_counters')
      .values({ key_id: keyId, month, documents_used: 0 })
      .onConflict((oc) => oc.columns(['key_id', 'month']).doNothing())
      .execute();
    const result = await this.db
      .updateTable('usage_counters')
      .set({ documents_used: sql`documents_used + ${documents}` })
      .where('key_id', '=', keyId)
      .where('month', '=', month)
      .where(
        sql<boolean>`documents_used + ${documents} <= (select monthly_quota from api_keys where api_keys.id = usage_counters.key_id)`,
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async recordUsage(record: UsageRecord): Promise<void> {
    await this.db
      .insertInto('usage_records')
      .values({
        request_id: record.requestId,
        key_id: record.keyId,
        organisation_id: record.organisationId,
        method: record.method,
        endpoint: record.endpoint,
        status_code: record.statusCode,
        bytes_in: record.bytesIn,
        processing_ms: record.processingMs,
        documents_charged: record.documentsCharged,
        error_code: record.errorCode ?? null,
        created_at: record.at.toISOString(),
      })
      .execute();
  }

  /** Usage per organisation for one UTC month (`YYYY-MM`), optionally for one organisation. */
  async usageSummary(month: string, organisation?: string): Promise<UsageSummaryRow[]> {
    const start = `${month}-01T00:00:00.000Z`;
    const next = new Date(start);
    next.setUTCMonth(next.getUTCMonth() + 1);
    let query = this.db
      .selectFrom('usage_records')
      .leftJoin('organisations', 'organisations.id', 'usage_records.organisation_id')
      .select((eb) => [
        'organisations.name as organisation',
        eb.fn.countAll().as('requests'),
        eb.fn.sum(eb.case().when('status_code', '<', 400).then(1).else(0).end()).as('succeeded'),
        eb.fn
          .sum(
            eb
              .case()
              .when(eb.and([eb('status_code', '>=', 400), eb('status_code', '<', 500)]))
              .then(1)
              .else(0)
              .end(),
          )
          .as('client_errors'),
        eb.fn
          .sum(eb.case().when('status_code', '>=', 500).then(1).else(0).end())
          .as('server_errors'),
        eb.fn.sum('documents_charged').as('documents_charged'),
        eb.fn.sum('bytes_in').as('bytes_in'),
        eb.fn.avg('processing_ms').as('average_ms'),
      ])
      .where('usage_records.created_at', '>=', start)
      .where('usage_records.created_at', '<', next.toISOString())
      .groupBy('organisations.name')
      .orderBy('organisations.name');
    if (organisation !== undefined) query = query.where('organisations.name', '=', organisation);
    const rows = await query.execute();
    return rows.map((row) => ({
      organisation: row.organisation,
      requests: Number(row.requests),
      succeeded: Number(row.succeeded),
      clientErrors: Number(row.client_errors),
      serverErrors: Number(row.server_errors),
      documentsCharged: Number(row.documents_charged),
      bytesIn: Number(row.bytes_in),
      averageMs: Math.round(Number(row.average_ms)),
    }));
  }

  /**
   * One key's usage log over the `days` UTC days ending with the day of `now`: requests,
   * documents charged and errors per day, and the errors by code. Only this key's records.
   */
  async keyUsage(keyId: string, days: number, now = new Date()): Promise<KeyUsage> {
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const dates = Array.from({ length: days }, (_, i) =>
      new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10),
    );
    const start = new Date(today - (days - 1) * DAY_MS).toISOString();
    const end = new Date(today + DAY_MS).toISOString();
    // Timestamps are ISO-8601 text in UTC: the day is their first ten characters, on both
    // dialects. The expression is written out (no parameters) so that PostgreSQL sees the
    // same expression in the select list and in GROUP BY.
    const day = sql<string>`substr(usage_records.created_at, 1, 10)`;
    const inPeriod = this.db
      .selectFrom('usage_records')
      .where('usage_records.key_id', '=', keyId)
      .where('usage_records.created_at', '>=', start)
      .where('usage_records.created_at', '<', end);
    const [perDay, perCode] = await Promise.all([
      inPeriod
        .select((eb) => [
          day.as('day'),
          eb.fn.countAll().as('requests'),
          eb.fn.sum('documents_charged').as('documents'),
          eb.fn.sum(eb.case().when('status_code', '>=', 400).then(1).else(0).end()).as('errors'),
        ])
        .groupBy(day)
        .execute(),
      inPeriod
        .where('status_code', '>=', 400)
        .select((eb) => ['error_code', 'status_code', eb.fn.countAll().as('count')])
        .groupBy(['error_code', 'status_code'])
        .execute(),
    ]);
    const byDay = new Map(perDay.map((row) => [row.day, row]));
    const counts = new Map<string, number>();
    for (const row of perCode) {
      const code = row.error_code ?? `http_${row.status_code}`;
      counts.set(code, (counts.get(code) ?? 0) + Number(row.count));
    }
    return {
      days: dates.map((date) => {
        const row = byDay.get(date);
        return {
          date,
          requests: Number(row?.requests ?? 0),
          documents: Number(row?.documents ?? 0),
          errors: Number(row?.errors ?? 0),
        };
      }),
      errorsByCode: [...counts]
        .map(([error, count]) => ({ error, count }))
        .sort((a, b) => b.count - a.count || (a.error < b.error ? -1 : 1)),
    };
  }
}
