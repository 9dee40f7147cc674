/**
 * Card extraction and PAN masking through HTTP: p50/p95 latency per card kind, one request at
 * a time, on generated cards (a few of each kind).
 *   node dist/bench/extract.js [cards-per-kind] [kind-filter]     (e.g. `3 photo`)
 * Prints a table; asserts nothing. The server runs in this process, on 127.0.0.1.
 */
import { performance } from 'node:perf_hooks';
import { backends } from '../test/helpers/databases.js';
import { startTestApp } from '../test/helpers/app.js';
import { fileUpload } from '../test/helpers/multipart.js';
import { CARD_KINDS, generateCardCorpus } from '../test/fixtures/cards/index.js';

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

const perKind = Number(process.argv[2] ?? 4);
const only = process.argv[3];
const kinds = CARD_KINDS.filter(
  (k) => k !== 'not-a-card' && (only === undefined || k.includes(only)),
);
const [sqlite] = backends().filter((b) => b.name === 'sqlite');
if (!sqlite) throw new Error('no sqlite backend');
const t = await startTestApp(sqlite, { routes: [], env: { PARDA_LOG_LEVEL: 'silent' } });
const { key } = await t.newKey({ monthlyQuota: 1_000_000, requestsPerMinute: 1_000_000 });
const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
const cards = await generateCardCorpus({ seed: 77, perKind, kinds });

async function send(path: string, bytes: Buffer, filename: string): Promise<number> {
  const form = fileUpload(bytes, filename);
  const started = performance.now();
  const res = await fetch(`${address}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': form.contentType },
    body: form.body,
  });
  await res.arrayBuffer();
  if (res.status !== 200 && res.status !== 422) throw new Error(`${path}: HTTP ${res.status}`);
  return performance.now() - started;
}

const first = cards[0];
if (first) await send('/api/v1/extract-aadhaar', first.bytes, first.filename); // warm-up
const rows = [];
for (const kind of kinds) {
  const ofKind = cards.filter((c) => c.kind === kind);
  const pan = kind.startsWith('pan-');
  const paths = pan ? ['/api/v1/extract-pan', '/api/v1/mask-pan'] : ['/api/v1/extract-aadhaar'];
  for (const path of paths) {
    const times: number[] = [];
    for (const card of ofKind) times.push(await send(path, card.bytes, card.filename));
    times.sort((a, b) => a - b);
    rows.push({
      kind,
      endpoint: path.replace('/api/v1/', ''),
      requests: times.length,
      'p50 ms': Math.round(percentile(times, 0.5)),
      'p95 ms': Math.round(percentile(times, 0.95)),
    });
  }
}
console.table(rows);
await t.close();
