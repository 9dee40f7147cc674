import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeCtc, type BlankRun, type CtcSteps } from '../../src/ocr/ctc.js';
import { summariseSteps } from './ctc-reference.js';

// Classes: blank, 'a', 'b', '1', ' ' (the space is last, as in PaddleOCR's dictionary).
const CHARSET = ['', 'a', 'b', '1', ' '];

/** One softmax row per step: the winning class gets `p`, the space class `space`, the blank the rest. */
function steps(path: readonly (number | [number, number])[], space = 0): CtcSteps {
  const classes = CHARSET.length;
  const data = new Float32Array(path.length * classes);
  path.forEach((entry, t) => {
    const [index, p] = typeof entry === 'number' ? [entry, 0.9] : entry;
    const row = t * classes;
    if (index === 0) {
      data[row + 4] = space;
      data[row] = 1 - space;
    } else {
      data[row + index] = p;
      data[row] = 1 - p;
    }
  });
  return summariseSteps(data, path.length, classes);
}

const noInk: BlankRun = () => undefined;
const settings = {
  spaceEvidence: 0.01,
  spaceGap: 0.25,
  faintSpaceEvidence: 0.001,
  wideSpaceGap: 0.45,
};

describe('CTC decoding', () => {
  it('summarises each step as its winner (the first of equal maxima), its probability and the space class', () => {
    const probabilities = Float32Array.from([...[0.1, 0.4, 0.4, 0, 0.1], ...[0.7, 0, 0, 0.1, 0.2]]);
    const summary = summariseSteps(probabilities, 2, CHARSET.length);
    assert.deepEqual(Array.from(summary.best), [1, 0]);
    assert.deepEqual(
      Array.from(summary.bestProbability).map((p) => +p.toFixed(6)),
      [0.4, 0.7],
    );
    assert.deepEqual(
      Array.from(summary.space).map((p) => +p.toFixed(6)),
      [0.1, 0.2],
    );
  });

  it('collapses repeats, drops blanks, and keeps a blank-separated double letter', () => {
    const probabilities = steps([0, 1, 1, 0, 2, 0, 2, 0]);
    const chars = decodeCtc(probabilities, CHARSET, 64, 64, settings, noInk);
    assert.deepEqual(
      chars.map((c) => c.text),
      ['a', 'b', 'b'],
    );
  });

  it('spans each character between the midpoints to its neighbours, in crop columns', () => {
    // 8 steps over a 64-column crop: 8 columns a step; peaks at steps 1.5, 4 and 6.
    const probabilities = steps([0, 1, 1, 0, 2, 0, 3, 0]);
    const chars = decodeCtc(probabilities, CHARSET, 64, 64, settings, noInk);
    // Peak centres at columns 16, 36 and 52.
    assert.deepEqual(
      chars.map((c) => [c.from, c.to]),
      [
        // The ends extend by half the median advance (of 20 and 16: the upper, 20).
        [16 - 10, (16 + 36) / 2],
        [(16 + 36) / 2, (36 + 52) / 2],
        [(36 + 52) / 2, 52 + 10],
      ],
    );
  });

  it("takes each character's confidence as its highest probability", () => {
    const probabilities = steps([[1, 0.6], [1, 0.95], 0, [2, 0.7]]);
    const chars = decodeCtc(probabilities, CHARSET, 32, 32, settings, noInk);
    assert.ok(Math.abs((chars[0]?.confidence ?? 0) - 0.95) < 1e-6);
    assert.ok(Math.abs((chars[1]?.confidence ?? 0) - 0.7) < 1e-6);
  });

  it('restores a left-out space only where the space class rose and the crop is blank', () => {
    const path = [1, 0, 0, 0, 2];
    const wide: BlankRun = () => 0.4;
    const narrow: BlankRun = () => 0.1;
    const text = (space: number, run: BlankRun): string =>
      decodeCtc(steps(path, space), CHARSET, 40, 40, settings, run)
        .map((c) => c.text)
        .join('');
    assert.equal(text(0.2, wide), 'a b');
    assert.equal(text(0.2, narrow), 'ab');
    assert.equal(text(0.001, wide), 'ab');
    assert.equal(text(0.2, noInk), 'ab');
    // Faint evidence takes a blank run about a space wide (the gap after "DOB:" in small print).
    const wider: BlankRun = () => 0.5;
    assert.equal(text(0.003, wider), 'a b');
    assert.equal(text(0.0005, wider), 'ab');
  });

  it('keeps the spaces the recogniser emits', () => {
    const chars = decodeCtc(steps([1, 0, 4, 0, 2]), CHARSET, 40, 40, settings, noInk);
    assert.equal(chars.map((c) => c.text).join(''), 'a b');
  });
});
