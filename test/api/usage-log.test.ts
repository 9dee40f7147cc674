import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Selectable } from 'kysely';
import type { UsageRecordsTable } from '../../src/accounts/schema.js';
import { backends } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import * as fixtures from '../helpers/fixtures.js';
import { eventually } from '../helpers/eventually.js';
import { fileUpload } from '../helpers/multipart.js';

const [sqlite] = backends();
type Row = Selectable<UsageRecordsTable>;

describe('the usage log', () => {
  let t: TestApp;
  before(async () => {
    if (!sqlite) throw new Error('no sqlite backend');
    t = await startTestApp(sqlite);
  });
  after(() => t.close());

  it('records every request with endpoint, size, time, status and charge, and nothing else', async () => {
    const { key, id } = await t.newKey();
    const form = fileUpload(await fixtures.jpeg(), 'secret-name.jpg', [
      { name: 'found', value: '2' },
    ]);
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/probe',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
    await t.app.inject({ method: 'GET', url: '/api/v1/global/entity-types?country=GB' });
    await t.app.inject({ method: 'GET', url: '/api/v1/account' });
    // The record is written after the response has gone out.
    const rows = await eventually(async () => {
      const all = await t.database.db
        .selectFrom('usage_records')
        .selectAll()
        .orderBy('id')
        .execute();
      assert.equal(all.length, 3);
      return all;
    });
    const [upload, listing, refused] = rows as [Row, Row, Row];
    assert.equal(upload.endpoint, '/api/v1/test/probe');
    assert.equal(upload.key_id, id);
    assert.equal(upload.status_code, 200);
    assert.equal(upload.documents_charged, 1);
    assert.equal(Number(upload.bytes_in), form.body.length);
    assert.ok(upload.processing_ms >= 0);
    assert.equal(listing.endpoint, '/api/v1/global/entity-types');
    assert.equal(listing.key_id, null);
    assert.equal(refused.status_code, 401);
    assert.ok(!JSON.stringify(rows).includes('secret-name'));
  });
  it('records the documentation UI too, with no error line', async () => {
    const count = async () =>
      (await t.database.db.selectFrom('usage_records').select('id').execute()).length;
    const start = await count();
    const logged = t.logs.length;
    const urls = ['/docs', '/docs/json', '/docs/static/swagger-ui.css'];
    const statuses: number[] = [];
    for (const url of urls) statuses.push((await t.app.inject({ method: 'GET', url })).statusCode);
    assert.deepEqual(statuses, [200, 200, 200]);
    const rows = await eventually(async () => {
      const all = await t.database.db
        .selectFrom('usage_records')
        .selectAll()
        .orderBy('id')
        .execute();
      assert.equal(all.length, start + urls.length);
      return all.slice(start);
    });
    assert.deepEqual(
      rows.map((r) => [r.endpoint, r.status_code, Number(r.bytes_in), r.key_id]),
      [
        ['/docs', 200, 0, null],
        ['/docs/json', 200, 0, null],
        ['/docs/static/*', 200, 0, null],
      ],
    );
    const errors = t.logs
      .slice(logged)
      .filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    assert.deepEqual(errors, []);
  });
});
