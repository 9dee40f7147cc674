/**
 * Indian identifier redaction through HTTP: pages per second for a 20-page PDF with a text layer,
 * and seconds per page for scanned A4 pages (image-only PDF pages at 200 dpi): a dense letter
 * (40 full lines, about 3,500 characters to read) and the two pages of a scanned document of the
 * redaction corpus (forms, tables, letters). One request at a time. Prints a table; asserts
 * nothing. The server runs in this process, on 127.0.0.1.
 *   node dist/bench/redact.js [runs]
 */
import { percentile, startBenchServer, withPeakRss } from './http.js';
import { mupdf } from '../src/documents/mupdf.js';
import { renderPdfPage } from '../src/documents/render.js';
import { imagesToPdf } from '../src/documents/writers.js';
import { generateRedactionDocument } from '../test/fixtures/redaction/index.js';
import { pdfWithLines, type PdfLine } from '../test/helpers/fixtures.js';

/** A letter-like page: prose lines with a few identifiers among them. */
function letterPage(n: number): PdfLine[] {
  const lines: PdfLine[] = [];
  for (let i = 0; i < 40; i += 1) {
    const y = 800 - i * 18;
    const text =
      i % 10 === 3
        ? `Customer ${n}-${i}: PAN ACUPA7085R, mobile +91 98765 43210, mail priya.sharma@example.in`
        : i % 10 === 7
          ? `GSTIN 27AAPFU0939F1ZV, IFSC SBIN0000691, Aadhaar 4918 7362 5102, invoice ${n}${i}0042`
          : `Line ${i} of page ${n}: the terms and conditions of the account continue here as plain prose.`;
    lines.push({ text, x: 50, y, size: 10 });
  }
  return lines;
}

async function scannedPages(count: number): Promise<Buffer> {
  const text = mupdf.Document.openDocument(
    pdfWithLines(Array.from({ length: count }, (_, i) => letterPage(i + 1))),
    'application/pdf',
  ).asPDF();
  if (!text) throw new Error('not a PDF');
  const images = Array.from({ length: count }, (_, i) => renderPdfPage(text, i, 200));
  text.destroy();
  return imagesToPdf(
    images,
    images.map(() => 200),
  );
}

const runs = Number(process.argv[2] ?? 5);
const server = await startBenchServer();

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
