import type { CtcSteps } from '../../src/ocr/ctc.js';

/**
 * The CTC summary (src/ocr/ctc.ts) from a full softmax (steps x classes), as the scan in
 * JavaScript did before ctc-head.ts moved it into the graph: the first of equal maxima wins.
 * The reference the graph's head is tested against, and how the decoding tests build steps.
 */
export function summariseSteps(
  probabilities: Float32Array,
  steps: number,
  classes: number,
): CtcSteps {
  const best = new Int32Array(steps);
  const bestProbability = new Float32Array(steps);
  const space = new Float32Array(steps);
  for (let t = 0; t < steps; t += 1) {
    const base = t * classes;
    let index = 0;
    let top = probabilities[base] as number;
    for (let c = 1; c < classes; c += 1) {
      const p = probabilities[base + c] as number;
      if (p > top) {
        top = p;
        index = c;
      }
    }
    best[t] = index;
    bestProbability[t] = top;
    space[t] = probabilities[base + classes - 1] as number;
  }
  return { best, bestProbability, space };
}
