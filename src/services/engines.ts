/** Process-wide engines, loaded once on first use (or at start-up by `parda serve`). */
import type { OcrEngine } from '../ocr/types.js';
import { createPaddleOcr } from '../ocr/paddle.js';

let ocr: Promise<OcrEngine> | null = null;

export function ocrEngine(): Promise<OcrEngine> {
  ocr ??= createPaddleOcr().catch((error: unknown) => {
    ocr = null; // let a later request try again rather than failing forever
    throw error;
  });
  return ocr;
}

export async function closeEngines(): Promise<void> {
  const engine = ocr;
  ocr = null;
  if (engine) await (await engine).close();
}
