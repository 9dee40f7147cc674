/**
 * PP-OCR's text direction classifier: says whether a line crop is upright or upside down.
 * Its input is small (3 x 48 x 192) so all lines go through in a few batched runs.
 *
 * PaddleOCR squeezes a whole line into those 192 columns; a line of prose is thirty times
 * longer than high and squeezed that far its glyphs are slivers, which the classifier called
 * upside down with 0.97 certainty (measured: a 90-character line of a 200 dpi letter, read
 * only upside down and lost). A long line is therefore looked at through a few windows of its
 * natural proportions, spread along it, and their verdicts averaged.
 */
import { ort } from './runtime.js';
import { cropFrame } from './crop.js';
import type { ReadingFrame } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';

const HEIGHT = 48;
const WIDTH = 192;
const BATCH = 32;
/** Windows looked at along one long line. */
const MAX_WINDOWS = 3;

/** The natural width of `frame` at the classifier's height. */
const naturalWidth = (frame: ReadingFrame): number =>
  Math.ceil((HEIGHT * frame.length) / Math.max(1, frame.thickness));

/** Pieces of `frame` of the classifier's proportions, evenly spread from its start to its end. */
export function classifierWindows(frame: ReadingFrame): ReadingFrame[] {
  const natural = naturalWidth(frame);
  if (natural <= WIDTH) return [frame];
  const length = (WIDTH * Math.max(1, frame.thickness)) / HEIGHT;
  const count = Math.min(MAX_WINDOWS, Math.ceil(natural / WIDTH));
  const step = (frame.length - length) / (count - 1);
  return Array.from({ length: count }, (_, i) => ({
    ...frame,
    ox: frame.ox + i * step * frame.rx,
    oy: frame.oy + i * step * frame.ry,
    length,
  }));
}

export class DirectionClassifier {
  constructor(private readonly session: ort.InferenceSession) {}

  /** For each frame, the probability that its text is upside down in it. */
  async upsideDown(image: RasterImage, frames: readonly ReadingFrame[]): Promise<number[]> {
    const windows = frames.map(classifierWindows);
    const verdicts = await this.classify(image, windows.flat());
    let next = 0;
    return windows.map((w) => {
      const mine = verdicts.slice(next, next + w.length);
      next += w.length;
      return mine.reduce((sum, p) => sum + p, 0) / mine.length;
    });
  }

  private async classify(image: RasterImage, frames: readonly ReadingFrame[]): Promise<number[]> {
    const result: number[] = [];
    const plane = 3 * HEIGHT * WIDTH;
    for (let start = 0; start < frames.length; start += BATCH) {
      const batch = frames.slice(start, start + BATCH);
      const data = new Float32Array(batch.length * plane);
      batch.forEach((frame, i) => {
        const textWidth = Math.max(1, Math.min(WIDTH, naturalWidth(frame)));
        // Plain bilinear: the classifier only needs the glyphs' general shape.
        const crop = cropFrame(image, frame, textWidth, WIDTH, HEIGHT, 1);
        data.set(crop.data, i * plane);
      });
      const tensor = new ort.Tensor('float32', data, [batch.length, 3, HEIGHT, WIDTH]);
      const outputs = await this.session.run({ [this.session.inputNames[0] ?? 'x']: tensor });
      tensor.dispose();
      const output = outputs[this.session.outputNames[0] ?? ''];
      if (output === undefined) throw new Error('The direction model returned no output.');
      const probabilities = output.data as Float32Array;
      for (let i = 0; i < batch.length; i += 1) result.push(probabilities[i * 2 + 1] as number);
      output.dispose();
    }
    return result;
  }
}
