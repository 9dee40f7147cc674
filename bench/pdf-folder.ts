/**
 * PDFs from a folder, as they are, through the document routes: what real files cost, where the
 * generators only make what we thought of. After a build:
 *
 *   node dist/bench/pdf-folder.js DIR [--concurrency 4] [--routes mask-aadhaar,...] [--max-pages N]
 *
 * Every `*.pdf` in DIR (not its subfolders) with at most N pages (default: all) is sent once to
 * each route (default mask-aadhaar, redact-pii and global/redact), in name order, to the service
 * started in this process as the other HTTP benchmarks start it.
 *
 * Prints, per route: the answers by status and error code; p50, p95 and the slowest time over
 * the files answered 200, and the same over one-page files; seconds per page; the files answered
 * 5xx; the five slowest files; and the peak resident memory of the process (the service with its
 * OCR and document threads). docs/benchmarks.md says where a corpus of real PDFs can be had
 * offline. Four at a time, a file's time includes its wait behind the others: read per-file
 * times from a run one at a time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { withPeakRss, percentile, startBenchServer, type Answer } from './http.js';
import { mupdf } from '../src/documents/mupdf.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    concurrency: { type: 'string', default: '4' },
    routes: { type: 'string', default: 'mask-aadhaar,redact-pii,global/redact' },
    'max-pages': { type: 'string' },
  },
});
const dir = positionals[0];
if (dir === undefined) {
  console.error(
    'usage: node dist/bench/pdf-folder.js DIR [--concurrency N] [--routes a,b] [--max-pages N]',
  );
  process.exit(2);
}
const concurrency = Number(values.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency: 1 or more');
const maxPages = values['max-pages'] === undefined ? Infinity : Number(values['max-pages']);
if (!(maxPages >= 1)) throw new Error('max-pages: 1 or more');
const routes = values.routes.split(',');

interface File {
  readonly name: string;
  readonly bytes: Buffer;
  /** Pages as MuPDF counts them; null when it cannot open the file. */
  readonly pages: number | null;
}

function pageCount(bytes: Buffer): number | null {
  try {
    const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
    try {
      return doc.countPages();
    } finally {
      doc.destroy();
    }
  } catch {
    return null;
  }
}

const found: File[] = fs
  .readdirSync(dir)
  .filter((name) => name.toLowerCase().endsWith('.pdf'))
  .sort()
  .map((name) => {
    const bytes = fs.readFileSync(path.join(dir, name));
    return { name, bytes, pages: pageCount(bytes) };
  });
const files = found.filter((f) => (f.pages ?? 0) <= maxPages);
const pageTotal = files.reduce((sum, f) => sum + (f.pages ?? 0), 0);
console.log(
  `${files.length} PDFs, ${pageTotal} pages, ${concurrency} at a time` +
    (files.length < found.length ? ` (${found.length - files.length} longer ones left out)` : ''),
);

const server = await startBenchServer();
const seconds = (ms: number) => (Number.isNaN(ms) ? 'n/a' : (ms / 1000).toFixed(2));

for (const route of routes) {
  const answers: (Answer & { file: File })[] = [];
  let next = 0;
  const { peakMb } = await withPeakRss(() =>
    Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < files.length) {
          const file = files[next] as File;
          next += 1;
          answers.push({ ...(await server.send(`/api/v1/${route}`, file.bytes, file.name)), file });
        }
      }),
    ),
  );
  const byAnswer = new Map<string, number>();
  for (const a of answers) {
    const label = a.code === null ? String(a.status) : `${a.status} ${a.code}`;
    byAnswer.set(label, (byAnswer.get(label) ?? 0) + 1);
  }
  const done = answers.filter((a) => a.status === 200);
  const times = done.map((a) => a.ms).sort((a, b) => a - b);
  const onePage = done
    .filter((a) => a.file.pages === 1)
    .map((a) => a.ms)
    .sort((a, b) => a - b);
  const pagesDone = done.reduce((sum, a) => sum + (a.file.pages ?? 0), 0);
  console.log(`\n/${route}: ${[...byAnswer].map(([k, n]) => `${n} x ${k}`).join(', ')}`);
  console.table([
    {
      files: done.length,
      'p50 s': seconds(percentile(times, 0.5)),
      'p95 s': seconds(percentile(times, 0.95)),
      'max s': seconds(times.at(-1) ?? NaN),
      'one-page files': onePage.length,
      'one-page p95 s': seconds(percentile(onePage, 0.95)),
      'one-page max s': seconds(onePage.at(-1) ?? NaN),
      's/page': seconds(pagesDone === 0 ? NaN : times.reduce((s, t) => s + t, 0) / pagesDone),
      'peak RSS MB': peakMb,
    },
  ]);
  for (const a of answers.filter((x) => x.status >= 500)) {
    console.log(`${a.status} ${a.code ?? ''}: ${a.file.name}`);
  }
  console.table(
    [...answers]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map((a) => ({
        slowest: a.file.name,
        pages: a.file.pages ?? 'n/a',
        KB: Math.round(a.file.bytes.length / 1024),
        answer: a.code === null ? String(a.status) : `${a.status} ${a.code}`,
        s: seconds(a.ms),
      })),
  );
}

await server.close();
