/**
 * Card extraction and PAN masking through HTTP: p50/p95 latency per card kind, one request at
 * a time, on generated cards (a few of each kind).
 *   node dist/bench/extract.js [cards-per-kind] [kind-filter]     (e.g. `3 photo`)
 * Prints a table; asserts nothing. The server runs in this process, on 127.0.0.1.
 */
import { percentile, startBenchServer } from './http.js';
import { CARD_KINDS, generateCardCorpus } from '../test/fixtures/cards/index.js';

const perKind = Number(process.argv[2] ?? 4);
const only = process.argv[3];
const kinds = CARD_KINDS.filter(
  (k) => k !== 'not-a-card' && (only === undefined || k.includes(only)),
);
const server = await startBenchServer();
const cards = await generateCardCorpus({ seed: 77, perKind, kinds });

// A document that holds no card of the kind is 422, and timed as well.
const send = (path: string, bytes: Buffer, filename: string) =>
  server.upload(path, bytes, filename, [200, 422]);

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
await server.close();
