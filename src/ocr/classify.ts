/**
 * PP-OCR's text direction classifier: says whether a line crop is upright or upside down.
 * Its input is small (3 x 48 x 192) so all lines go through in a few batched runs.
 */
import * as ort from 'onnxruntime-node';
import { cropFrame } from './crop.js';
import type { ReadingFrame } from './geometry.js';
import type { RasterImage } from './types.js';

const HEIGHT = 48;
const WIDTH = 192;
const BATCH = 32;

export class DirectionClassifier {
  constructor(private readonly session: ort.InferenceSession) {}

  /** For each frame, the probability that its text is upside down in it. */
  async upsideDown(image: RasterImage, frames: readonly ReadingFrame[]): Promise<number[]> {
    const result: number[] = [];
    const plane = 3 * HEIGHT * WIDTH;
    for (let start = 0; start < frames.length; start += BATCH) {
      const batch = frames.slice(start, start + BATCH);
      const data = new Float32Array(batch.length * plane);
      batch.forEach((frame, i) => {
        // Lines longer than the input are squeezed into it, as PaddleOCR does.
        const natural = Math.ceil((HEIGHT * frame.length) / Math.max(1, frame.thickness));
        const textWidth = Math.max(1, Math.min(WIDTH, natural));
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
