/**
 * The recogniser's rate on this machine, read on the dense letter page alone. A scanned page's
 * time is mostly the recogniser's arithmetic, whose speed differed by about 1.8x between the
 * machines of two sessions on the same code: printed beside a benchmark's figures, it lets them
 * be compared across machines (and tells a slower machine from a slower build).
 */
import { createPaddleOcr } from '../src/ocr/index.js';
import { percentile } from './http.js';
import { scannedLetters } from './letter.js';

/** Reads the page three times after a warm-up and prints the median ms per 1,000 columns. */
export async function printRecogniserRate(): Promise<void> {
  const ocr = await createPaddleOcr();
  const [page] = scannedLetters(1, 200);
  if (!page) throw new Error('no page');
  await ocr.readWithTimings(page, 0, 'document'); // warm-up
  const rates: number[] = [];
  let columns = 0;
  for (let i = 0; i < 3; i += 1) {
    const { timings } = await ocr.readWithTimings(page, 0, 'document');
    columns = timings.recognitionColumns;
    rates.push((1000 * timings.recognition) / columns);
  }
  await ocr.close();
  const rate = percentile(
    rates.sort((a, b) => a - b),
    0.5,
  );
  console.log(
    `recogniser on this machine: ${rate.toFixed(1)} ms per 1,000 columns ` +
      `(the dense page has ${columns} columns)`,
  );
}
