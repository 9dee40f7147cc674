import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import * as fixtures from '../helpers/fixtures.js';
import { eventually } from '../helpers/eventually.js';
import { fileUpload } from '../helpers/multipart.js';

for (const backend of backends()) {
  describe(`monthly quota over HTTP on ${backend.name}`, () => {
    let t: TestApp;
    let image: Buffer;
    before(async () => {
      t = await startTestApp(backend);
      image = await fixtures.jpeg();
    });
    after(() => t.close());

    const probe = (key: string, fields: Record<string, string>) => {
      const form = fileUpload(
        image,
        'card.jpg',
        Object.entries(fields).map(([name, value]) => ({ name, value })),
      );
      return t.app.inject({
        method: 'POST',
        url: '/api/v1/test/probe',
        headers: { 'x-api-key': key, 'content-type': form.contentType },
        payload: form.body,
      });
    };

    it('charges a call that found something and not one that found nothing', async () => {
      const { key } = await t.newKey({ monthlyQuota: 5 });
      const nothing = await probe(key, { found: '0' });
      assert.equal(nothing.statusCode, 200);
      assert.equal(nothing.headers['x-quota-used'], '0');
      assert.equal(nothing.headers['x-quota-remaining'], '5');
      const found = await probe(key, { found: '3' });
      assert.equal(found.statusCode, 200);
      assert.equal(found.headers['x-quota-used'], '1');
      assert.equal(found.headers['x-quota-remaining'], '4');
    });

    it('does not charge failures', async () => {
      const { key, id } = await t.newKey({ monthlyQuota: 5 });
      assert.equal((await probe(key, { found: '1', fail: 'yes' })).statusCode, 500);
      const form = fileUpload(Buffer.from('not a document'));
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/v1/test/probe',
        headers: { 'x-api-key': key, 'content-type': form.contentType },
        payload: form.body,
      });
      assert.equal(refused.statusCode, 422);
      assert.equal((await t.store.quota(await t.store.getKey(id))).used, 0);
    });

    it('429 quota_exceeded with the quota object once the quota is used up', async () => {
      const { key } = await t.newKey({ monthlyQuota: 1 });
      assert.equal((await probe(key, { found: '1' })).statusCode, 200);
      const res = await probe(key, { found: '1' });
      assert.equal(res.statusCode, 429);
      assert.deepEqual(res.json(), {
        error: 'quota_exceeded',
        message: res.json<{ message: string }>().message,
        quota: { limit: 1, used: 1, remaining: 0 },
      });
      assert.equal(res.headers['x-quota-used'], '1');
      assert.equal(res.headers['x-quota-remaining'], '0');
      assert.equal(res.headers['retry-after'], undefined);
    });

    it('20 simultaneous charged calls against a quota of 10: exactly 10 charged, 10 refused', async () => {
      const { key, id } = await t.newKey({ monthlyQuota: 10 });
      // The delay holds every call inside processing until all 20 have passed the check.
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => probe(key, { found: '1', delay_ms: '150' })),
      );
      const statuses = responses.map((r) => r.statusCode).sort();
      assert.deepEqual(statuses, [
        ...Array.from({ length: 10 }, () => 200),
        ...Array.from({ length: 10 }, () => 429),
      ]);
      for (const refused of responses.filter((r) => r.statusCode === 429)) {
        const body = refused.json<{ error: string; quota: unknown }>();
        assert.equal(body.error, 'quota_exceeded');
        assert.deepEqual(body.quota, { limit: 10, used: 10, remaining: 0 });
      }
      assert.deepEqual(await t.store.quota(await t.store.getKey(id)), {
        limit: 10,
        used: 10,
        remaining: 0,
      });
      await eventually(async () => {
        const logged = await t.database.db
          .selectFrom('usage_records')
          .select((eb) => [eb.fn.countAll().as('requests'), eb.fn.sum('documents_charged').as('n')])
          .where('key_id', '=', id)
          .executeTakeFirstOrThrow();
        assert.equal(Number(logged.requests), 20);
        assert.equal(Number(logged.n), 10);
      });
    });
  });
}
