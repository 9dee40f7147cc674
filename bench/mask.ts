/**
 * The card path, measured: `/mask-aadhaar` on a 1200-px card photo, a PVC card photo, an A4
 * 300-dpi printout, an attested A4 photocopy with a pen line across one copy of the number, and
 * a 5-page scanned PDF.
 *   node dist/bench/mask.js [runs] [case-filter] [on|off]   (e.g. `12 photo off`)
 * The third argument turns the re-read of the output (PARDA_RESIDUAL_CHECK) on (default) or off.
 *
 * Prints three tables and asserts nothing:
 * 1. over HTTP (the server runs in this process, on 127.0.0.1, its document workers warmed up):
 *    p50/p95 one at a time and four at once, documents per second, peak RSS, and one plain
 *    Tesseract pass over the same pixels with the ratio of Parda's p50 to it (bench/tesseract.ts);
 * 2. where one document's time goes, stage by stage (median over the runs, in this process:
 *    intake, each OCR reading's detection, sideways detection, orientation and recognition with
 *    the lines and columns it read, find, the second and copies looks, QR, cover and re-read,
 *    encode);
 * 3. the recogniser's rate on this machine, ms per 1,000 columns.
 */
import { performance } from 'node:perf_hooks';
import { percentile, startBenchServer, withPeakRss } from './http.js';
import { tesseractMs } from './tesseract.js';
import { generateDocument } from '../test/fixtures/aadhaar/index.js';
import { mupdf } from '../src/documents/mupdf.js';
import { loadSettings } from '../src/config/settings.js';
import { recordStages, type StageTime } from '../src/domain/stage-times.js';
import { serviceContext } from '../src/services/context.js';
import { inProcessServices } from '../src/services/document-services.js';
import { closeEngines } from '../src/services/engines.js';
import { printRecogniserRate } from './recogniser-rate.js';

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
const env = { PARDA_RESIDUAL_CHECK: reread };
const server = await startBenchServer(env);

const photo = await generateDocument('front-photo', 7);
const pvc = await generateDocument('front-pvc', 5);
const printout = await generateDocument('printout', 11);
// A greyscale photocopy whose front copy a pen line crosses: the copy is read a second time.
const attested = await generateDocument('attested-scan', 0x99b43194);
const allCases: Case[] = [
  { name: `card photo ${photo.filename}`, filename: photo.filename, bytes: photo.bytes },
  { name: `PVC card photo ${pvc.filename}`, filename: pvc.filename, bytes: pvc.bytes },
  { name: 'A4 300-dpi printout', filename: printout.filename, bytes: printout.bytes },
  { name: 'A4 attested copy, pen over a copy', filename: attested.filename, bytes: attested.bytes },
  { name: '5-page scanned PDF', filename: 'five.pdf', bytes: await fivePagePdf() },
];
const cases = allCases.filter((k) => only === undefined || k.name.includes(only));

const send = (c: Case) => server.upload('/api/v1/mask-aadhaar', c.bytes, c.filename);
const settings = loadSettings({ PARDA_LOG_LEVEL: 'silent', ...env });

const rows = [];
for (const c of cases) {
  // The yardstick first: the first request after it was up to 2.7 times as slow as the rest
  // (measured: a card photo's p95 of 12 at 538-716 ms against a p50 of 197-238 ms).
  const baseline = await tesseractMs(c.bytes, c.filename, settings.pdfOcrDpi);
  // Warm-up: every document worker sees the case before the timed requests, and the lane its
  // inputs' sizes (a worker's first document of a kind was up to 3x slower, which 8 or 12 timed
  // requests let into the p50).
  await Promise.all(Array.from({ length: settings.maxConcurrentDocuments }, () => send(c)));
  await send(c);
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
    const p50 = percentile(times, 0.5);
    const perSecond = times.length / elapsed;
    rows.push({
      case: c.name,
      're-read': reread,
      concurrency,
      requests: times.length,
      'p50 ms': Math.round(p50),
      'p95 ms': Math.round(percentile(times, 0.95)),
      'docs/s': perSecond.toFixed(2),
      'peak RSS MB': peakMb,
      'tesseract ms': baseline === null ? 'n/a' : Math.round(baseline),
      // One at a time: Parda's p50 against one Tesseract pass; four at once: documents done
      // in the time of one Tesseract pass.
      'vs tesseract':
        baseline === null
          ? 'n/a'
          : concurrency === 1
            ? `${(p50 / baseline).toFixed(2)}x time`
            : `${((perSecond * baseline) / 1000).toFixed(2)} docs`,
    });
  }
}
console.table(rows);
await server.close();

/** Median of each stage over the runs; a stage met several times in a run is summed. */
function stageTable(name: string, recorded: readonly StageTime[][]) {
  const names = [...new Set(recorded.flatMap((stages) => stages.map((s) => s.stage)))];
  return names.map((stage) => {
    const totals = recorded.map((stages) => {
      const mine = stages.filter((s) => s.stage === stage);
      const counts: Record<string, number> = {};
      for (const s of mine) {
        for (const [k, v] of Object.entries(s.counts ?? {})) counts[k] = (counts[k] ?? 0) + v;
      }
      return { ms: mine.reduce((sum, s) => sum + s.ms, 0), times: mine.length, counts };
    });
    const middle = [...totals].sort((a, b) => a.ms - b.ms)[Math.floor(totals.length / 2)];
    const counts = Object.entries(middle?.counts ?? {})
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    return {
      case: name,
      stage,
      'p50 ms': Number((middle?.ms ?? 0).toFixed(1)),
      times: middle?.times ?? 0,
      counts,
    };
  });
}

const services = inProcessServices(serviceContext(settings));
const stageRows = [];
const stageRuns = Math.max(3, Math.min(runs, 7));
for (const c of cases) {
  const upload = { bytes: c.bytes, filename: c.filename };
  const options = { outputFormat: 'same', maskQr: 'xml' } as const;
  await services.maskAadhaar(upload, options); // warm-up
  const recorded: StageTime[][] = [];
  for (let i = 0; i < stageRuns; i += 1) {
    const started = performance.now();
    const { stages } = await recordStages(() => services.maskAadhaar(upload, options));
    recorded.push([...stages, { stage: 'total', ms: performance.now() - started }]);
  }
  stageRows.push(...stageTable(c.name, recorded));
}
console.table(stageRows);

await closeEngines(); // the in-process services' OCR engine
await printRecogniserRate();
