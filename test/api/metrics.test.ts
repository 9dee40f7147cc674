import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { simpleCard } from '../helpers/cards.js';
import { fileUpload } from '../helpers/multipart.js';

const [sqlite] = backends();
const NUMBER = '2345 6789 0124';
const TOKEN = 'scrape-token-0123456789abcdef';

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The Prometheus text format's samples (comments skipped). */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match?.[1] || match[3] === undefined) throw new Error(`not a sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] ?? ''] = pair[2] ?? '';
    }
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample with this name and exactly these labels; undefined if none. */
function value(samples: readonly Sample[], name: string, labels: Record<string, string> = {}) {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  const found = samples.filter(
    (s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === wanted,
  );
  assert.ok(found.length <= 1, `${name} ${wanted} is unique`);
  return found[0]?.value;
}

describe('GET /metrics', () => {
  describe('on, for loopback clients', () => {
    let t: TestApp;
    before(async () => {
      if (!sqlite) throw new Error('no sqlite backend');
      t = await startTestApp(sqlite, { routes: [], env: { PARDA_METRICS: 'on' } });
    });
    after(() => t.close());

    it('counts requests, refusals and documents by route pattern and outcome, and nothing private', async () => {
      const { key, id } = await t.newKey({ monthlyQuota: 10 });
      const { key: spent, id: spentId } = await t.newKey({ monthlyQuota: 0 });
      const { key: slow, id: slowId } = await t.newKey({ requestsPerMinute: 1 });
      const card = await simpleCard({ number: NUMBER });
      const mask = (apiKey: string) => {
        const form = fileUpload(card.bytes, 'secret-card-name.png');
        return t.app.inject({
          method: 'POST',
          url: '/api/v1/mask-aadhaar',
          headers: { 'x-api-key': apiKey, 'content-type': form.contentType },
          payload: form.body,
        });
      };
      const masked = await mask(key);
      assert.equal(masked.statusCode, 200, masked.body);
      assert.equal(masked.headers['x-masked-count'], '1');
      assert.equal((await mask(spent)).statusCode, 429);
      assert.equal((await t.app.inject({ url: '/no/such/2345-6789-0124' })).statusCode, 404);
      assert.equal((await t.app.inject({ url: '/api/v1/account' })).statusCode, 401);
      const account = { url: '/api/v1/account', headers: { 'x-api-key': slow } };
      assert.equal((await t.app.inject(account)).statusCode, 200);
      assert.equal((await t.app.inject(account)).statusCode, 429);

      const res = await t.app.inject({ url: '/metrics' });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      const samples = parse(res.body);
      const requests = (route: string, status: string, method = 'POST') =>
        value(samples, 'parda_http_requests_total', { route, method, status });
      assert.equal(requests('/api/v1/mask-aadhaar', '200'), 1);
      assert.equal(requests('/api/v1/mask-aadhaar', '429'), 1);
      assert.equal(requests('unmatched', '404', 'GET'), 1);
      assert.equal(requests('/api/v1/account', '401', 'GET'), 1);
      assert.equal(requests('/api/v1/account', '200', 'GET'), 1);
      assert.equal(requests('/api/v1/account', '429', 'GET'), 1);
      // The scrape itself is not counted.
      assert.equal(requests('/metrics', '200', 'GET'), undefined);
      const errors = (route: string, code: string) =>
        value(samples, 'parda_http_errors_total', { route, code });
      assert.equal(errors('/api/v1/mask-aadhaar', 'quota_exceeded'), 1);
      assert.equal(errors('/api/v1/account', 'rate_limited'), 1);
      assert.equal(errors('/api/v1/account', 'missing_api_key'), 1);
      assert.equal(errors('unmatched', 'not_found'), 1);
      assert.equal(
        samples.filter((s) => s.name === 'parda_http_errors_total').length,
        4,
        'no other error counted',
      );
      const documents = { service: 'maskAadhaar', outcome: 'found' };
      assert.equal(value(samples, 'parda_documents_total', documents), 1);
      assert.equal(value(samples, 'parda_pages_total', documents), 1);
      assert.equal(
        samples.filter((s) => s.name === 'parda_documents_total').length,
        1,
        'the refused request reached no service',
      );
      assert.equal(
        value(samples, 'parda_document_duration_seconds_count', { service: 'maskAadhaar' }),
        1,
      );
      const latency = (le: string) =>
        value(samples, 'parda_http_request_duration_seconds_bucket', {
          route: '/api/v1/mask-aadhaar',
          method: 'POST',
          le,
        });
      assert.equal(latency('+Inf'), 2);
      assert.equal(
        value(samples, 'parda_http_request_duration_seconds_count', {
          route: '/api/v1/mask-aadhaar',
          method: 'POST',
        }),
        2,
      );
      assert.equal(value(samples, 'parda_pool_wait_seconds_count'), 1);
      assert.equal(value(samples, 'parda_pool_threads'), t.settings.maxConcurrentDocuments);
      assert.equal(value(samples, 'parda_pool_busy'), 0);
      assert.equal(value(samples, 'parda_pool_queued'), 0);
      assert.equal(value(samples, 'parda_pool_max_queue'), t.settings.maxQueuedDocuments);
      assert.ok(value(samples, 'parda_pool_threads_alive') !== undefined);
      assert.ok(value(samples, 'process_cpu_user_seconds_total') !== undefined);
      assert.ok(value(samples, 'nodejs_heap_size_used_bytes') !== undefined);

      // Names, labels and help only: a sample's value (a time, a byte count) may hold any digits.
      const described = res.body
        .split('\n')
        .map((line) => (line.startsWith('#') ? line : line.replace(/\s+\S+$/, '')))
        .join('\n');
      assert.ok(!res.body.includes('234567890124') && !res.body.includes(NUMBER));
      for (const secret of [
        key,
        spent,
        slow,
        id,
        spentId,
        slowId,
        'secret-card-name',
        '2345',
        '6789',
        '0124',
        'test-org',
      ]) {
        assert.ok(!described.includes(secret), `the scrape does not hold ${secret}`);
      }
    });

    it('is left out of the usage log', async () => {
      const count = async () =>
        (await t.database.db.selectFrom('usage_records').select('endpoint').execute()).filter(
          (r) => r.endpoint === '/metrics',
        ).length;
      assert.equal((await t.app.inject({ url: '/metrics' })).statusCode, 200);
      await t.app.inject({ url: '/health' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(await count(), 0);
    });

    it('is 404 for a client that is not on this machine, or comes through a proxy', async () => {
      const remote = await t.app.inject({ url: '/metrics', remoteAddress: '203.0.113.9' });
      assert.equal(remote.statusCode, 404);
      assert.equal(remote.json<{ error: string }>().error, 'not_found');
      const proxied = await t.app.inject({
        url: '/metrics',
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      assert.equal(proxied.statusCode, 404);
    });

    it('is hidden from the OpenAPI document', async () => {
      const res = await t.app.inject({ url: '/docs/json' });
      assert.equal(res.statusCode, 200);
      assert.ok(res.body.includes('"/health"'));
      assert.ok(!res.body.includes('"/metrics"'));
    });
  });

  describe('off (the default)', () => {
    let t: TestApp;
    before(async () => {
      if (!sqlite) throw new Error('no sqlite backend');
      t = await startTestApp(sqlite, { routes: [] });
    });
    after(() => t.close());

    it('is an unknown route', async () => {
      const res = await t.app.inject({ url: '/metrics' });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json<{ error: string }>().error, 'not_found');
    });
  });

  describe('with PARDA_METRICS_TOKEN', () => {
    let t: TestApp;
    before(async () => {
      if (!sqlite) throw new Error('no sqlite backend');
      t = await startTestApp(sqlite, {
        routes: [],
        env: { PARDA_METRICS: 'on', PARDA_METRICS_TOKEN: TOKEN },
      });
    });
    after(() => t.close());

    it('needs the bearer token, from anywhere', async () => {
      assert.equal((await t.app.inject({ url: '/metrics' })).statusCode, 404);
      const wrong = { authorization: `Bearer ${TOKEN}x` };
      assert.equal((await t.app.inject({ url: '/metrics', headers: wrong })).statusCode, 404);
      const res = await t.app.inject({
        url: '/metrics',
        remoteAddress: '203.0.113.9',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      assert.equal(res.statusCode, 200);
      assert.ok(parse(res.body).some((s) => s.name === 'parda_pool_threads'));
    });
  });

  it('gives the cluster-wide figures from any worker of a cluster', async () => {
    const script = fileURLToPath(new URL('./metrics-cluster.fixture.js', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [script], {
      timeout: 60_000,
      env: { ...process.env, PARDA_METRICS_CLUSTER_FIXTURE: '1' },
    });
    const samples = parse(stdout);
    const route = { route: '/api/v1/account', method: 'GET', status: '200' };
    // Three workers answered one request each; the scrape went to one of them.
    assert.equal(value(samples, 'parda_http_requests_total', route), 3);
    assert.equal(value(samples, 'parda_pool_threads'), 3 * 2);
  });
});
