import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const [sqlite] = backends();

function assertErrorBody(body: unknown, error: string): void {
  assert.ok(typeof body === 'object' && body !== null);
  const keys = Object.keys(body).sort();
  assert.deepEqual(keys, ['error', 'message']);
  assert.equal((body as { error: string }).error, error);
  assert.equal(typeof (body as { message: string }).message, 'string');
}

describe('authentication and rate limits over HTTP', () => {
  let t: TestApp;
  const now = { value: new Date('2026-11-15T12:00:00Z') };
  before(async () => {
    if (!sqlite) throw new Error('no sqlite backend');
    t = await startTestApp(sqlite, { now: () => now.value });
  });
  after(() => t.close());

  const account = (key?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/v1/account',
      headers: key === undefined ? {} : { 'x-api-key': key },
    });

  it('401 missing_api_key without the header, with no quota headers', async () => {
    const res = await account();
    assert.equal(res.statusCode, 401);
    assertErrorBody(res.json(), 'missing_api_key');
    assert.equal(res.headers['x-quota-used'], undefined);
  });

  it('401 invalid_api_key for an unknown key and for a revoked key', async () => {
    const unknown = await account(`pk_live_${'A'.repeat(40)}`);
    assert.equal(unknown.statusCode, 401);
    assertErrorBody(unknown.json(), 'invalid_api_key');

    const garbage = await account('not a key at all');
    assert.equal(garbage.statusCode, 401);
    assertErrorBody(garbage.json(), 'invalid_api_key');

    const { key, id } = await t.newKey();
    await t.store.setStatus(id, 'revoked');
    const revoked = await account(key);
    assert.equal(revoked.statusCode, 401);
    assertErrorBody(revoked.json(), 'invalid_api_key');
  });

  it('403 key_disabled for a disabled key, and back to 200 once enabled', async () => {
    const { key, id } = await t.newKey();
    await t.store.setStatus(id, 'disabled');
    const disabled = await account(key);
    assert.equal(disabled.statusCode, 403);
    assertErrorBody(disabled.json(), 'key_disabled');
    await t.store.setStatus(id, 'active');
    assert.equal((await account(key)).statusCode, 200);
  });

  it('402 subscription_lapsed once the paid period is over', async () => {
    const { key } = await t.newKey({ paidUntil: '2026-11-14' });
    const res = await account(key);
    assert.equal(res.statusCode, 402);
    assertErrorBody(res.json(), 'subscription_lapsed');
    assert.match(res.json<{ message: string }>().message, /2026-11-14/);
    const { key: paid } = await t.newKey({ paidUntil: '2026-11-15' });
    assert.equal((await account(paid)).statusCode, 200);
  });

  it('sends the quota headers on every authenticated response', async () => {
    const { key, id } = await t.newKey({ monthlyQuota: 7 });
    await t.store.charge(id, 3, now.value);
    const res = await account(key);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-quota-used'], '3');
    assert.equal(res.headers['x-quota-remaining'], '4');
    assert.deepEqual(res.json<{ quota: unknown }>().quota, { limit: 7, used: 3, remaining: 4 });
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  it('429 rate_limited with Retry-After past the per-minute limit, per key', async () => {
    const { key } = await t.newKey({ requestsPerMinute: 3 });
    const { key: other } = await t.newKey({ requestsPerMinute: 3 });
    for (let i = 0; i < 3; i += 1) assert.equal((await account(key)).statusCode, 200);
    const limited = await account(key);
    assert.equal(limited.statusCode, 429);
    assertErrorBody(limited.json(), 'rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
      String(retryAfter),
    );
    assert.equal(limited.headers['x-quota-remaining'], '100');
    assert.equal((await account(other)).statusCode, 200);
  });

  it('serves /health and the type listings without a key', async () => {
    for (const url of ['/health', '/api/v1/pii-types', '/api/v1/global/entity-types']) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['x-quota-used'], undefined);
    }
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    assert.deepEqual(health.json(), { status: 'ok' });
  });

  it('never writes the key to the logs', async () => {
    const { key } = await t.newKey();
    await account(key);
    await account(`${key}x`);
    const secret = key.slice(key.indexOf('_live_') + 6);
    assert.ok(t.logs.length > 0);
    assert.ok(!t.logs.some((line) => line.includes(secret)));
  });
});
