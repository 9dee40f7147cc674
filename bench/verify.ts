/**
 * Verification through HTTP: p50/p95 latency per card kind, one request at a time, on generated
 * cards (genuine, altered and unverifiable ones), with the test certificate trusted.
 *   node dist/bench/verify.js [cards-per-kind] [kind-filter]     (e.g. `5 photo`)
 * Prints a table; asserts nothing. The server runs in this process, on 127.0.0.1.
 */
import { percentile, startBenchServer } from './http.js';
import sharp from 'sharp';
import { testKeyPath } from '../test/fixtures/aadhaar/keys.js';
import { generateVerifyCorpus, VERIFY_KINDS } from '../test/fixtures/cards/verify-kinds.js';

const perKind = Number(process.argv[2] ?? 5);
const only = process.argv[3];
const kinds = VERIFY_KINDS.filter((k) => only === undefined || k.includes(only));
const server = await startBenchServer({ PARDA_UIDAI_CERTS: testKeyPath('certificate') });
const cards = await generateVerifyCorpus({ seed: 91, perKind, kinds });

const send = (bytes: Buffer, filename: string) =>
  server.upload('/api/v1/verify-document', bytes, filename);

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
await server.close();

async function megapixels(bytes: Buffer): Promise<number> {
  const { width, height } = await sharp(bytes).metadata();
  return Math.round((width * height) / 100_000) / 10;
}
