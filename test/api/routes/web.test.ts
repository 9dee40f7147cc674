import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WEB_CSP } from '../../../src/api/routes/web.js';
import { backends } from '../../helpers/databases.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { eventually } from '../../helpers/eventually.js';

const [sqlite] = backends();
if (!sqlite) throw new Error('no sqlite backend');

const JS = 'text/javascript; charset=utf-8';

describe('the web tool: GET / and /web/*', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(sqlite, { routes: [] });
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('serves the page without a key, as HTML under a strict CSP and no inline script', async () => {
    const res = await get('/');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    assert.equal(csp, WEB_CSP);
    assert.match(csp, /^default-src 'self'; script-src 'self'; style-src 'self';/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['x-quota-used'], undefined);
    // Every script is a file of this origin; no inline script, style or handler.
    const scripts = [...res.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.deepEqual(
      scripts.map((m) => [m[1]?.trim(), m[2]]),
      [['type="module" src="/web/app.js"', '']],
    );
    assert.doesNotMatch(res.body, /<style\b|\sstyle=|\son[a-z]+=/i);
    assert.doesNotMatch(res.body, /https?:\/\//, 'nothing from another origin');
  });

  it('serves every asset with its content type, the module graph of the page included', async () => {
    const expected: Record<string, string> = {
      '/web/app.js': JS,
      '/web/style.css': 'text/css; charset=utf-8',
      '/web/icon.svg': 'image/svg+xml',
      '/web/vendor/pdf.min.mjs': JS,
      '/web/vendor/pdf.worker.min.mjs': JS,
      '/web/vendor/standard_fonts/LiberationSans-Regular.ttf': 'font/ttf',
    };
    for (const [url, type] of Object.entries(expected)) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['content-type'], type, url);
      assert.equal(res.headers['content-security-policy'], WEB_CSP, url);
      assert.ok(res.rawPayload.length > 0, url);
    }
    assert.equal(
      (await get('/web/vendor/pdf.min.mjs')).headers['cache-control'],
      'public, max-age=86400',
    );
    assert.equal((await get('/web/app.js')).headers['cache-control'], 'no-cache');
    // Each module the page imports, and each module they import, is served as JavaScript.
    const seen = new Set<string>();
    const queue = ['/web/app.js'];
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      if (seen.has(url)) continue;
      seen.add(url);
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['content-type'], JS, url);
      for (const m of res.body.matchAll(/\bfrom '(\.\/[\w-]+\.js)'/g)) {
        queue.push(new URL(m[1] ?? '', `http://x${url}`).pathname);
      }
    }
    assert.ok(seen.size >= 6, [...seen].join(', '));
  });

  it('answers 304 to a copy it has already sent', async () => {
    const first = await get('/web/style.css');
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[\w-]+"$/);
    const again = await get('/web/style.css', { 'if-none-match': etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.rawPayload.length, 0);
  });

  it('refuses path traversal, encoded or not, with a 404 JSON error', async () => {
    const attempts = [
      '/web/../package.json',
      '/web/%2e%2e/package.json',
      '/web/%2e%2e%2fpackage.json',
      '/web/..%2fpackage.json',
      '/web/..%5cpackage.json',
      '/web/%252e%252e%252fpackage.json',
      '/web/vendor/../../package.json',
      '/web/vendor/%2e%2e%2f%2e%2e%2fsrc%2fapi%2fapp.ts',
      '/web//etc/passwd',
      '/web/%2fetc%2fpasswd',
      '/web/vendor/pdf.mjs',
      '/web/vendor/../build/pdf.mjs',
      '/web/',
      '/web/app.js%00.html',
    ];
    for (const url of attempts) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url);
      assert.match(String(res.headers['content-type']), /^application\/json/, url);
      assert.equal(res.json<{ error: string }>().error, 'not_found', url);
      assert.ok(!res.body.includes('"name"'), `${url}: no file content`);
    }
  });

  it('keeps the page and its files out of the API documentation', async () => {
    const res = await get('/docs/json');
    const paths = Object.keys(res.json<{ paths: Record<string, unknown> }>().paths);
    assert.ok(paths.includes('/api/v1/account/usage'));
    assert.ok(!paths.some((p) => p === '/' || p.startsWith('/web')), paths.join(', '));
  });
});

interface Usage {
  days: { date: string; requests: number; documents: number; errors: number }[];
  errors_by_code: { error: string; count: number }[];
}

for (const backend of backends()) {
  describe(`GET /api/v1/account/usage on ${backend.name}`, () => {
    let t: TestApp;
    let now = new Date('2025-03-01T10:00:00Z');
    before(async () => {
      t = await startTestApp(backend, { routes: [], now: () => now });
    });
    after(() => t.close());

    const usage = (key: string | undefined, query = '') =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/account/usage${query}`,
        headers: key === undefined ? {} : { 'x-api-key': key },
      });
    const text = (key: string, body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/global/redact/text',
        headers: { 'x-api-key': key },
        payload: body,
      });
    /** Waits for the records of responses already sent (written after each response). */
    const recorded = (keyId: string, count: number) =>
      eventually(async () => {
        const rows = await t.database.db
          .selectFrom('usage_records')
          .select('id')
          .where('key_id', '=', keyId)
          .execute();
        assert.equal(rows.length, count);
      });

    it('needs a key', async () => {
      const res = await usage(undefined);
      assert.equal(res.statusCode, 401);
      assert.equal(res.json<{ error: string }>().error, 'missing_api_key');
      const wrong = await usage('pk_live_notakeyatall000000000000000000000');
      assert.equal(wrong.statusCode, 401);
    });

    it('counts the requests, documents and errors of each UTC day and the errors by code', async () => {
      const { key, id } = await t.newKey({ organisation: 'usage-a' });
      // Outside the period asked for below.
      now = new Date('2025-03-01T10:00:00Z');
      assert.equal((await text(key, { text: 'write to jane.doe@mailbox.co.uk' })).statusCode, 200);
      // The last minute of 9 March: one charged, one free, one refused.
      now = new Date('2025-03-09T23:59:30Z');
      assert.equal((await text(key, { text: 'mail jane.doe@mailbox.co.uk' })).statusCode, 200);
      assert.equal((await text(key, { text: 'nothing here' })).statusCode, 200);
      assert.equal((await text(key, { text: 'x', mode: 'bogus' })).statusCode, 422);
      // 10 March: the account, two refusals of one kind, one of another, one more charge.
      now = new Date('2025-03-10T00:00:10Z');
      assert.equal(
        (await t.app.inject({ url: '/api/v1/account', headers: { 'x-api-key': key } })).statusCode,
        200,
      );
      assert.equal((await text(key, { mode: 'token' })).statusCode, 422);
      assert.equal((await text(key, { text: 5 })).statusCode, 422);
      assert.equal((await text(key, { text: 'x', countries: 'ZZZ' })).statusCode, 422);
      assert.equal((await text(key, { text: 'card 4111 1111 1111 1111' })).statusCode, 200);
      await recorded(id, 9);

      now = new Date('2025-03-10T18:00:00Z');
      const res = await usage(key, '?days=3');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.deepEqual(res.json<Usage>(), {
        days: [
          { date: '2025-03-08', requests: 0, documents: 0, errors: 0 },
          { date: '2025-03-09', requests: 3, documents: 1, errors: 1 },
          { date: '2025-03-10', requests: 5, documents: 1, errors: 3 },
        ],
        errors_by_code: [
          { error: 'invalid_request', count: 2 },
          { error: 'invalid_country', count: 1 },
          { error: 'invalid_mode', count: 1 },
        ],
      });

      // The default period is 30 days ending today; that usage request now counts too.
      await recorded(id, 10);
      const month = (await usage(key)).json<Usage>();
      assert.equal(month.days.length, 30);
      assert.equal(month.days[0]?.date, '2025-02-09');
      assert.equal(month.days.at(-1)?.date, '2025-03-10');
      assert.deepEqual(month.days.at(-1), {
        date: '2025-03-10',
        requests: 6,
        documents: 1,
        errors: 3,
      });
      assert.deepEqual(
        month.days.find((d) => d.date === '2025-03-01'),
        { date: '2025-03-01', requests: 1, documents: 1, errors: 0 },
      );
      for (const day of month.days) {
        for (const n of [day.requests, day.documents, day.errors]) assert.ok(Number.isInteger(n));
      }
    });

    it('refuses a period outside 1 to 366 days', async () => {
      const { key } = await t.newKey();
      for (const query of ['?days=0', '?days=367', '?days=abc', '?days=2&other=1']) {
        const res = await usage(key, query);
        assert.equal(res.statusCode, 422, query);
        assert.equal(res.json<{ error: string }>().error, 'invalid_request', query);
      }
      assert.equal((await usage(key, '?days=366')).json<Usage>().days.length, 366);
    });

    it("shows a key its own usage only, never another key's", async () => {
      now = new Date('2025-04-02T12:00:00Z');
      const a = await t.newKey({ organisation: 'isolation-a' });
      const b = await t.newKey({ organisation: 'isolation-a' });
      const c = await t.newKey({ organisation: 'isolation-c' });
      for (let i = 0; i < 3; i += 1) await text(b.key, { text: 'mail jane.doe@mailbox.co.uk' });
      await text(b.key, { text: 'x', mode: 'bogus' });
      await text(c.key, { text: 5 });
      // A refusal without a valid key is no key's.
      await t.app.inject({ url: '/api/v1/account/usage', headers: { 'x-api-key': 'wrong' } });
      await text(a.key, { text: 'nothing' });
      await Promise.all([recorded(b.id, 4), recorded(c.id, 1), recorded(a.id, 1)]);

      const today = (usage: Usage) => usage.days.at(-1);
      const ofA = (await usage(a.key, '?days=1')).json<Usage>();
      assert.deepEqual(ofA, {
        days: [{ date: '2025-04-02', requests: 1, documents: 0, errors: 0 }],
        errors_by_code: [],
      });
      const ofB = (await usage(b.key, '?days=1')).json<Usage>();
      assert.deepEqual(today(ofB), { date: '2025-04-02', requests: 4, documents: 3, errors: 1 });
      assert.deepEqual(ofB.errors_by_code, [{ error: 'invalid_mode', count: 1 }]);
      const ofC = (await usage(c.key, '?days=1')).json<Usage>();
      assert.deepEqual(today(ofC), { date: '2025-04-02', requests: 1, documents: 0, errors: 1 });
      assert.deepEqual(ofC.errors_by_code, [{ error: 'invalid_request', count: 1 }]);
    });
  });
}
