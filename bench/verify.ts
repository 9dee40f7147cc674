/**
 * Verification through HTTP: p50/p95 latency per card kind, one request at a time, on generated
 * cards (genuine, altered and unverifiable ones), with the test certificate trusted.
 *   node dist/bench/verify.js [cards-per-kind] [kind-filter]     (e.g. `5 photo`)
 * Prints a table; asserts nothing. The server runs in this process, on 127.0.0.1.
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { testKeyPath } from '../test/fixtures/aadhaar/keys.js';
import { generateVerifyCorpus, VERIFY_KINDS } from '../test/fixtures/cards/verify-kinds.js';
import { startTestApp } from '../test/helpers/app.js';
import { backends } from '../test/helpers/databases.js';
import { fileUpload } from '../test/helpers/multipart.js';

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

const perKind = Number(process.argv[2] ?? 5);
const only = process.argv[3];
const kinds = VERIFY_KINDS.filter((k) => only === undefined || k.includes(only));
const [sqlite] = backends().filter((b) => b.name === 'sqlite');
if (!sqlite) throw new Error('no sqlite backend');
const t = await startTestApp(sqlite, {
  routes: [],
  env: { PARDA_LOG_LEVEL: 'silent', PARDA_UIDAI_CERTS: testKeyPath('certificate') },
});
const { key } = await t.newKey({ monthlyQuota: 1_000_000, requestsPerMinute: 1_000_000 });
const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
const cards = await generateVerifyCorpus({ seed: 91, perKind, kinds });

async function send(bytes: Buffer, filename: string): Promise<number> {
  const form = fileUpload(bytes, filename);
  const started = performance.now();
  const res = await fetch(`${address}/api/v1/verify-document`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': form.contentType },
    body: form.body,
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  return performance.now() - started;
}

const first = cards[0];
if (first) await send(first.bytes, first.filename); // warm-up: models, certificates
const rows = [];
const all: number[] = [];
for (const kind of kinds) {
  const ofKind = cards.filter((c) => c.kind === kind);
  const times: number[] = [];
  for (const card of ofKind) times.push(await send(card.bytes, card.filename));
  all.push(...times);
  times.sort((a, b) => a - b);
  const sample = ofKind[0];
  rows.push({
    kind,
    'megapixels (first)': sample ? await megapixels(sample.bytes) : NaN,
    requests: times.length,
    'p50 ms': Math.round(percentile(times, 0.5)),
    'p95 ms': Math.round(percentile(times, 0.95)),
  });
}
all.sort((a, b) => a - b);
rows.push({
  kind: 'all',
  'megapixels (first)': NaN,
  requests: all.length,
  'p50 ms': Math.round(percentile(all, 0.5)),
  'p95 ms': Math.round(percentile(all, 0.95)),
});
console.table(rows);
await t.close();

async function megapixels(bytes: Buffer): Promise<number> {
  const { width, height } = await sharp(bytes).metadata();
  return Math.round((width * height) / 100_000) / 10;
}
