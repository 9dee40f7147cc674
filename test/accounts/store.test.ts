import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authenticate } from '../../src/accounts/authenticate.js';
import { AccountStore, KeyStateError } from '../../src/accounts/store.js';
import { backends, type TestDatabase } from '../helpers/databases.js';

for (const backend of backends()) {
  describe(`accounts store on ${backend.name}`, () => {
    let database: TestDatabase;
    let store: AccountStore;
    before(async () => {
      database = await backend.open();
      store = new AccountStore(database.db);
    });
    after(() => database.cleanup());

    const newKey = (organisation = 'acme', monthlyQuota = 10) =>
      store.createKey({ organisation, monthlyQuota, requestsPerMinute: 60 });

    it('stores a key only as its hash and finds it again', async () => {
      const { key, record } = await newKey();
      const row = await database.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', record.id)
        .executeTakeFirstOrThrow();
      assert.ok(!Object.values(row).some((value) => String(value).includes(key.slice(8))));
      assert.equal(row.key_last4, key.slice(-4));
      const found = await store.findByKey(key);
      assert.ok(found);
      assert.equal(found.id, record.id);
      assert.equal(found.organisationName, 'acme');
      // A key that differs in its last character only (not the same one: a key may end in 0).
      const other = key.endsWith('0') ? '1' : '0';
      assert.equal(await store.findByKey(`${key.slice(0, -1)}${other}`), null);
    });

    it('reuses an organisation by name', async () => {
      const a = await newKey('shared-org');
      const b = await newKey('shared-org');
      assert.equal(a.record.organisationId, b.record.organisationId);
      assert.equal((await store.listKeys('shared-org')).length, 2);
    });

    it('moves keys between active and disabled; revocation is final', async () => {
      const { key, record } = await newKey();
      assert.equal((await authenticate(store, key)).outcome, 'ok');
      await store.setStatus(record.id, 'disabled');
      assert.equal((await authenticate(store, key)).outcome, 'disabled');
      await store.setStatus(record.id, 'active');
      assert.equal((await authenticate(store, key)).outcome, 'ok');
      await store.setStatus(record.id, 'revoked');
      assert.equal((await authenticate(store, key)).outcome, 'invalid');
      await assert.rejects(store.setStatus(record.id, 'active'), KeyStateError);
    });

    it('treats a key as lapsed from the day after its paid period', async () => {
      const { key, record } = await newKey();
      await store.updateKey(record.id, { paidUntil: '2026-03-31' });
      const lastDay = new Date('2026-03-31T23:59:59Z');
      const nextDay = new Date('2026-04-01T00:00:00Z');
      assert.equal((await authenticate(store, key, lastDay)).outcome, 'ok');
      const lapsed = await authenticate(store, key, nextDay);
      assert.equal(lapsed.outcome, 'lapsed');
    });

    it('charges atomically: 20 concurrent charges against a quota of 10 charge exactly 10', async () => {
      const { record } = await newKey('concurrency', 10);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => store.charge(record.id, 1)),
      );
      assert.equal(results.filter(Boolean).length, 10);
      assert.equal(results.filter((ok) => !ok).length, 10);
      assert.deepEqual(await store.quota(record), { limit: 10, used: 10, remaining: 0 });
    });

    it('charges a batch whole or not at all', async () => {
      const { record } = await newKey('batches', 10);
      assert.ok(await store.charge(record.id, 7));
      assert.ok(!(await store.charge(record.id, 4)));
      assert.ok(await store.charge(record.id, 3));
      assert.equal((await store.quota(record)).used, 10);
    });

    it('counts each calendar month (UTC) separately', async () => {
      const { record } = await newKey('months', 2);
      const endOfJanuary = new Date('2026-01-31T23:59:59.999Z');
      const startOfFebruary = new Date('2026-02-01T00:00:00Z');
      assert.ok(await store.charge(record.id, 2, endOfJanuary));
      assert.ok(!(await store.charge(record.id, 1, endOfJanuary)));
      assert.ok(await store.charge(record.id, 2, startOfFebruary));
      assert.deepEqual(await store.quota(record, endOfJanuary), {
        limit: 2,
        used: 2,
        remaining: 0,
      });
    });

    it('uses the quota as it stands when charging, after a change', async () => {
      const { record } = await newKey('raised', 1);
      assert.ok(await store.charge(record.id, 1));
      assert.ok(!(await store.charge(record.id, 1)));
      await store.updateKey(record.id, { monthlyQuota: 3 });
      assert.ok(await store.charge(record.id, 2));
    });

    it('summarises the usage log per organisation and month', async () => {
      const { record } = await newKey('usage-org');
      const at = new Date('2026-05-10T10:00:00Z');
      const base = {
        keyId: record.id,
        organisationId: record.organisationId,
        method: 'POST',
        endpoint: '/api/v1/mask-aadhaar',
        bytesIn: 3_000_000_000,
        processingMs: 100,
        at,
      };
      await store.recordUsage({ ...base, requestId: 'a', statusCode: 200, documentsCharged: 1 });
      await store.recordUsage({
        ...base,
        requestId: 'b',
        statusCode: 422,
        documentsCharged: 0,
        processingMs: 300,
      });
      await store.recordUsage({
        ...base,
        requestId: 'c',
        statusCode: 500,
        documentsCharged: 0,
        at: new Date('2026-06-01T00:00:00Z'),
      });
      const [row] = await store.usageSummary('2026-05', 'usage-org');
      assert.deepEqual(row, {
        organisation: 'usage-org',
        requests: 2,
        succeeded: 1,
        clientErrors: 1,
        serverErrors: 0,
        documentsCharged: 1,
        bytesIn: 6_000_000_000,
        averageMs: 200,
      });
    });
  });
}
