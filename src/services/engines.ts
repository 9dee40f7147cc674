/** Process-wide engines, loaded once on first use (or at start-up by `parda serve`). */
import { loadSettings } from '../config/settings.js';
import { createPaddleOcr, type PaddleOcr } from '../ocr/paddle.js';
import { WORKER_NICE } from './pool/priority.js';

let ocr: Promise<PaddleOcr> | null = null;

function start(): Promise<PaddleOcr> {
  // The process's settings were checked when it started (serve, the CLI).
  const lanes = loadSettings().ocrLanes;
  const loading = createPaddleOcr({ threadNice: WORKER_NICE, lanes }).catch((error: unknown) => {
    ocr = null; // let a later request try again rather than failing forever
    throw error;
  });
  ocr = loading;
  return loading;
}

export async function ocrEngine(): Promise<PaddleOcr> {
  const engine = await (ocr ?? start());
  // A worker that died (out of memory, a native crash) fails its own reads; the next
  // request gets a fresh engine.
  return engine.usable ? engine : start();
}

export async function closeEngines(): Promise<void> {
  const engine = ocr;
  ocr = null;
  if (engine) await (await engine).close();
}
