/**
 * Global file redaction through HTTP (POST /global/redact, box mode, default types): pages per
 * second for a 50-page PDF with a text layer (letters with identifiers on every page), and the
 * time per image for a 2000-px scan (a rendered page of text with identifiers, as a JPEG). One
 * request at a time. Prints a table; asserts nothing. The server runs in this process.
 *   node dist/bench/global-redact.js [runs]
 */
import sharp from 'sharp';
import { mupdf } from '../src/documents/mupdf.js';
import { renderPdfPage } from '../src/documents/render.js';
import { pdfWithLines, type PdfLine } from '../test/helpers/fixtures.js';
import { percentile, startBenchServer, withPeakRss } from './http.js';

/** A letter page: prose with an IBAN, a card, an e-mail address and an SSN among the lines. */
function letterPage(n: number): PdfLine[] {
  const lines: PdfLine[] = [];
  for (let i = 0; i < 40; i += 1) {
    const text =
      i % 10 === 3
        ? `Customer ${n}-${i}: IBAN GB82 WEST 1234 5698 7654 32, mail jane.doe@mailbox.co.uk`
        : i % 10 === 7
          ? `Card 4111 1111 1111 1111 on file, SSN 536-22-1234, order ${n}${i}0042 shipped`
          : `Line ${i} of page ${n}: the terms and conditions of the account continue here as prose.`;
    lines.push({ text, x: 50, y: 800 - i * 18, size: 10 });
  }
  return lines;
}

/** A 2000-px wide scan of one letter page (about 240 dpi on A4), as a JPEG. */
async function scan(): Promise<Buffer> {
  const pdf = mupdf.Document.openDocument(pdfWithLines([letterPage(1)]), 'application/pdf').asPDF();
  if (!pdf) throw new Error('not a PDF');
  const image = renderPdfPage(pdf, 0, (2000 / 595) * 72);
  pdf.destroy();
  return sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

const runs = Number(process.argv[2] ?? 5);
const server = await startBenchServer();
const cases = [
  {
    name: '50-page PDF, text layer',
    pages: 50,
    bytes: pdfWithLines(Array.from({ length: 50 }, (_, i) => letterPage(i + 1))),
    filename: 'letters.pdf',
  },
  { name: '2000-px scan (JPEG)', pages: 1, bytes: await scan(), filename: 'scan.jpg' },
];

const rows = [];
for (const c of cases) {
  await server.upload('/api/v1/global/redact', c.bytes, c.filename); // warm-up
  const { result: times, peakMb } = await withPeakRss(async () => {
    const measured: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      measured.push(await server.upload('/api/v1/global/redact', c.bytes, c.filename));
    }
    return measured.sort((a, b) => a - b);
  });
  const p50 = percentile(times, 0.5);
  rows.push({
    case: c.name,
    requests: times.length,
    'p50 ms': Math.round(p50),
    'p95 ms': Math.round(percentile(times, 0.95)),
    'pages/s': ((c.pages * 1000) / p50).toFixed(1),
    'ms/page': Math.round(p50 / c.pages),
    'peak RSS MB': peakMb,
  });
}
console.table(rows);
await server.close();
