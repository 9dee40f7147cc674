import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { ort } from '../../src/ocr/runtime.js';
import { addCtcHead, CTC_OUTPUTS } from '../../src/ocr/ctc-head.js';
import { decodeCtc, type CtcSteps } from '../../src/ocr/ctc.js';
import { summariseSteps } from './ctc-reference.js';
import { foldPaddleGraph } from '../../src/ocr/graph-folding.js';
import { defaultModelPaths, loadCharset } from '../../src/ocr/models.js';
import { Page } from './fixtures.js';

const OPTIONS: ort.InferenceSession.SessionOptions = { intraOpNumThreads: 2, logSeverityLevel: 3 };
const HEIGHT = 48;

/** A printed line as the recogniser's input: channels-first BGR in [-1, 1]. */
function lineTensor(text: string): ort.Tensor {
  const page = new Page(640, HEIGHT);
  page.text(text, 8, 34, { size: 26 });
  const { width, pixels } = page.raster();
  const plane = width * HEIGHT;
  const data = new Float32Array(plane * 3);
  for (let i = 0; i < plane; i += 1) {
    for (let c = 0; c < 3; c += 1) data[c * plane + i] = (pixels[i * 4 + 2 - c] ?? 0) / 127.5 - 1;
  }
  return new ort.Tensor('float32', data, [1, 3, HEIGHT, width]);
}

describe('CTC head in the recogniser graph', () => {
  it('gives, per step, what decoding took from the whole softmax', async () => {
    const paths = defaultModelPaths();
    const folded = foldPaddleGraph(await readFile(paths.recognition)).bytes;
    const head = addCtcHead(folded, { keepProbabilities: true });
    const charset = await loadCharset(paths.dictionary, head.classes);
    assert.equal(head.classes, 6625);
    const session = await ort.InferenceSession.create(head.bytes, OPTIONS);
    try {
      assert.deepEqual(session.outputNames.slice(0, 3), [
        CTC_OUTPUTS.best,
        CTC_OUTPUTS.bestProbability,
        CTC_OUTPUTS.space,
      ]);
      const settings = {
        spaceEvidence: 0.01,
        spaceGap: 0.25,
        faintSpaceEvidence: 0.001,
        wideSpaceGap: 0.45,
      };
      for (const text of ['PAN ABCDE1234F, mobile 98765 43210', 'GSTIN 27AAPFU0939F1ZV ok']) {
        const outputs = await session.run({ [session.inputNames[0] ?? 'x']: lineTensor(text) });
        const softmax = outputs[session.outputNames[3] ?? ''];
        assert.ok(softmax);
        const [, steps = 0, classes = 0] = softmax.dims;
        assert.equal(classes, head.classes);
        const reference = summariseSteps(softmax.data as Float32Array, steps, classes);
        const summary = {
          best: outputs[CTC_OUTPUTS.best]?.data as Int32Array,
          bestProbability: outputs[CTC_OUTPUTS.bestProbability]?.data as Float32Array,
          space: outputs[CTC_OUTPUTS.space]?.data as Float32Array,
        };
        assert.equal(summary.best.length, steps);
        assert.deepEqual(Array.from(summary.best), Array.from(reference.best));
        assert.deepEqual(summary.bestProbability, reference.bestProbability);
        assert.deepEqual(summary.space, reference.space);
        const read = (s: CtcSteps) =>
          decodeCtc(s, charset, 640, 640, settings, () => undefined)
            .map((c) => c.text)
            .join('');
        // The line is read, and read the same from either form.
        assert.equal(read(summary).trim(), text);
        assert.equal(read(summary), read(reference));
      }
    } finally {
      await session.release();
    }
  });

  it('refuses a model that does not declare its classes', () => {
    assert.throws(() => addCtcHead(new Uint8Array()), /exactly one output/);
  });
});
