/**
 * Indian identifier redaction through HTTP: pages per second for a 20-page PDF with a text layer,
 * and seconds per page for scanned A4 pages (image-only PDF pages at 200 dpi): a dense letter
 * (40 full lines, about 3,500 characters to read) and the two pages of a scanned document of the
 * redaction corpus (forms, tables, letters). One request at a time. Prints a table; asserts
 * nothing. The server runs in this process, on 127.0.0.1. Then the recogniser's rate on this
 * machine, which tells a slower machine from a slower build.
 *   node dist/bench/redact.js [runs] [on|off]
 * The second argument turns the re-read of the output (PARDA_RESIDUAL_CHECK) on (default) or off,
 * which measures what the re-read costs.
 */
import { percentile, startBenchServer, withPeakRss } from './http.js';
import { letterPage, scannedLetters } from './letter.js';
import { printRecogniserRate } from './recogniser-rate.js';
import { imagesToPdf } from '../src/documents/writers.js';
import { generateRedactionDocument } from '../test/fixtures/redaction/index.js';
import { pdfWithLines } from '../test/helpers/fixtures.js';

async function scannedPages(count: number): Promise<Buffer> {
  const images = scannedLetters(count, 200);
  return imagesToPdf(
    images,
    images.map(() => 200),
  );
}

const runs = Number(process.argv[2] ?? 5);
const reread = process.argv[3] === 'off' ? 'off' : 'on';
const server = await startBenchServer({ PARDA_RESIDUAL_CHECK: reread });

const cases = [
  {
    name: '20-page PDF, text layer',
    pages: 20,
    bytes: pdfWithLines(Array.from({ length: 20 }, (_, i) => letterPage(i + 1))),
  },
  { name: 'scanned A4 letter, 200 dpi, dense', pages: 1, bytes: await scannedPages(1) },
  {
    name: 'scanned corpus document, 2 pages',
    pages: 2,
    bytes: (await generateRedactionDocument('scanned-pdf', 7)).bytes,
  },
];

const send = (bytes: Buffer) => server.upload('/api/v1/redact-pii', bytes, 'document.pdf');

const rows = [];
for (const c of cases) {
  await send(c.bytes); // warm-up
  const { result: times, peakMb } = await withPeakRss(async () => {
    const measured: number[] = [];
    for (let i = 0; i < runs; i += 1) measured.push(await send(c.bytes));
    return measured.sort((a, b) => a - b);
  });
  const p50 = percentile(times, 0.5);
  rows.push({
    case: c.name,
    're-read': reread,
    requests: times.length,
    'p50 ms': Math.round(p50),
    'p95 ms': Math.round(percentile(times, 0.95)),
    'pages/s': ((c.pages * 1000) / p50).toFixed(2),
    's/page': (p50 / 1000 / c.pages).toFixed(2),
    'peak RSS MB': peakMb,
  });
}
console.table(rows);
await server.close();

await printRecogniserRate();
