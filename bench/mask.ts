/**
 * Aadhaar masking through HTTP: p50/p95 latency and peak memory (RSS) for a 1200-px card
 * photo, a PVC card photo, an A4 300-dpi printout, an attested A4 photocopy with a pen line
 * across one copy of the number, and a 5-page PDF, one request at a time and 4 at once.
 *   node dist/bench/mask.js [runs] [case-filter] [on|off]   (e.g. `12 photo off`)
 * The third argument turns the re-read of the output (PARDA_RESIDUAL_CHECK) on (default) or off,
 * which measures what the re-read costs.
 * Prints a table; asserts nothing. The server runs in this process, on 127.0.0.1.
 */
import { performance } from 'node:perf_hooks';
import { percentile, startBenchServer, withPeakRss } from './http.js';
import { generateDocument } from '../test/fixtures/aadhaar/index.js';
import { mupdf } from '../src/documents/mupdf.js';

interface Case {
  readonly name: string;
  readonly filename: string;
  readonly bytes: Buffer;
}

/** Five scanned pages in one PDF, grafted from generated scans. */
async function fivePagePdf(): Promise<Buffer> {
  const out = new mupdf.PDFDocument();
  let seed = 500;
  while (out.countPages() < 5) {
    const doc = await generateDocument('pdf-scan', seed);
    seed += 1;
    const source = mupdf.Document.openDocument(doc.bytes, 'application/pdf').asPDF();
    if (!source) throw new Error('not a PDF');
    for (let i = 0; i < source.countPages() && out.countPages() < 5; i += 1) {
      out.graftPage(-1, source, i);
    }
    source.destroy();
  }
  const buffer = out.saveToBuffer('garbage=4,compress=yes');
  const bytes = Buffer.from(buffer.asUint8Array());
  buffer.destroy();
  out.destroy();
  return bytes;
}

const runs = Number(process.argv[2] ?? 12);
const only = process.argv[3] || undefined;
const reread = process.argv[4] === 'off' ? 'off' : 'on';
const server = await startBenchServer({ PARDA_RESIDUAL_CHECK: reread });

const photo = await generateDocument('front-photo', 7);
const pvc = await generateDocument('front-pvc', 5);
const printout = await generateDocument('printout', 11);
// A greyscale photocopy whose front copy a pen line crosses: the copy is read a second time.
const attested = await generateDocument('attested-scan', 0x99b43194);
const cases: Case[] = [
  { name: `card photo ${photo.filename}`, filename: photo.filename, bytes: photo.bytes },
  { name: `PVC card photo ${pvc.filename}`, filename: pvc.filename, bytes: pvc.bytes },
  { name: 'A4 300-dpi printout', filename: printout.filename, bytes: printout.bytes },
  { name: 'A4 attested copy, pen over a copy', filename: attested.filename, bytes: attested.bytes },
  { name: '5-page scanned PDF', filename: 'five.pdf', bytes: await fivePagePdf() },
];

const send = (c: Case) => server.upload('/api/v1/mask-aadhaar', c.bytes, c.filename);

const rows = [];
for (const c of cases.filter((k) => only === undefined || k.name.includes(only))) {
  await send(c); // warm-up: models loaded, caches filled
  for (const concurrency of [1, 4]) {
    const times: number[] = [];
    const started = performance.now();
    let next = 0;
    const { peakMb } = await withPeakRss(() =>
      Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < runs) {
            next += 1;
            times.push(await send(c));
          }
        }),
      ),
    );
    const elapsed = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    rows.push({
      case: c.name,
      're-read': reread,
      concurrency,
      requests: times.length,
      'p50 ms': Math.round(percentile(times, 0.5)),
      'p95 ms': Math.round(percentile(times, 0.95)),
      'docs/s': (times.length / elapsed).toFixed(2),
      'peak RSS MB': peakMb,
    });
  }
}
console.table(rows);
await server.close();
