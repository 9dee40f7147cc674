/**
 * The benchmarks' yardstick: one plain Tesseract pass (`OMP_THREAD_LIMIT=1 tesseract IMG -`)
 * over the same pixels Parda reads, so that figures compare across machines as a ratio. Debian's
 * `tesseract-ocr`, in the benchmarks only, never in the product; null when it is not installed.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { INDIAN_FORMATS } from '../src/documents/document.js';
import { intake } from '../src/documents/intake.js';
import { renderPdfPage } from '../src/documents/render.js';
import { percentile } from './http.js';

const run = promisify(execFile);

async function tesseractOnce(file: string): Promise<number> {
  const started = performance.now();
  await run('tesseract', [file, '-'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
  return performance.now() - started;
}

let available: Promise<boolean> | undefined;

/** Whether `tesseract` runs here (asked once). */
export function tesseractAvailable(): Promise<boolean> {
  available ??= run('tesseract', ['--version']).then(
    () => true,
    () => false,
  );
  return available;
}

/**
 * Median milliseconds of one Tesseract pass over every page of `bytes` (an image as it is; a
 * PDF's pages rendered at `pdfDpi`, as Parda renders them to OCR), summed over the pages.
 */
export async function tesseractMs(
  bytes: Buffer,
  filename: string,
  pdfDpi: number,
  runs = 3,
): Promise<number | null> {
  if (!(await tesseractAvailable())) return null;
  const folder = await mkdtemp(path.join(tmpdir(), 'parda-bench-'));
  try {
    const files: string[] = [];
    const document = await intake(bytes, filename, {
      accepted: INDIAN_FORMATS,
      maxPixels: 400_000_000,
      maxPages: 100,
    });
    try {
      if (document.pdf) {
        for (let i = 0; i < document.pages.length; i += 1) {
          const page = renderPdfPage(document.pdf, i, pdfDpi);
          const file = path.join(folder, `page-${i}.png`);
          const raw = { width: page.width, height: page.height, channels: page.channels };
          await sharp(page.pixels, { raw }).png({ compressionLevel: 1 }).toFile(file);
          files.push(file);
        }
      } else {
        const file = path.join(folder, filename);
        await writeFile(file, bytes);
        files.push(file);
      }
    } finally {
      document.dispose();
    }
    const totals: number[] = [];
    for (let r = 0; r < runs; r += 1) {
      let total = 0;
      for (const file of files) total += await tesseractOnce(file);
      totals.push(total);
    }
    return percentile(
      totals.sort((a, b) => a - b),
      0.5,
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
