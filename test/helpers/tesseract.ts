/**
 * An independent reader for the tests: Tesseract (tesseract.js, WebAssembly) with the English
 * model shipped by @tesseract.js-data/eng, loaded from node_modules; nothing is fetched or
 * cached on disk. It shares no code with Parda's own OCR, so it can confirm that covered
 * digits are really unreadable.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { createWorker, type Worker } from 'tesseract.js';

const require = createRequire(import.meta.url);

let worker: Promise<Worker> | null = null;

export function tesseract(): Promise<Worker> {
  if (!worker) {
    const langPath = path.join(
      path.dirname(require.resolve('@tesseract.js-data/eng/package.json')),
      '4.0.0_best_int',
    );
    worker = createWorker('eng', 1, { langPath, gzip: true, cacheMethod: 'none' });
  }
  return worker;
}

/** The digits Tesseract reads anywhere in the image, one string per line, spaces removed. */
export async function digitRuns(image: Buffer): Promise<string[]> {
  const reader = await tesseract();
  const { data } = await reader.recognize(image);
  return data.text
    .split('\n')
    .map((line) => line.replace(/[^0-9]/g, ''))
    .filter((line) => line.length > 0);
}

/**
 * The digit runs read with the image turned 0, 90, 180 and 270 degrees: a number printed
 * sideways, or a page delivered upside down, is read the right way up in one of them.
 */
export async function digitRunsTurned(image: Buffer): Promise<string[]> {
  const runs: string[] = [];
  for (const angle of [0, 90, 180, 270]) {
    const turned = angle === 0 ? image : await sharp(image).rotate(angle).png().toBuffer();
    runs.push(...(await digitRuns(turned)));
  }
  return runs;
}

export async function closeTesseract(): Promise<void> {
  if (worker) await (await worker).terminate();
  worker = null;
}
