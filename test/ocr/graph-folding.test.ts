import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import onnxProto from 'onnx-proto';
import { ort } from '../../src/ocr/runtime.js';
import { foldPaddleGraph, type FoldCounts } from '../../src/ocr/graph-folding.js';
import { defaultModelPaths } from '../../src/ocr/models.js';

const { onnx } = onnxProto;
const OPTIONS: ort.InferenceSession.SessionOptions = { intraOpNumThreads: 2, logSeverityLevel: 3 };

/** Seeded values in [-1, 1): the same input for both graphs. */
function seeded(length: number, seed = 7): Float32Array {
  let state = seed;
  return Float32Array.from({ length }, () => {
    state = (state * 16807) % 2147483647;
    return (state / 2147483647) * 2 - 1;
  });
}

async function run(model: Uint8Array, dims: number[]): Promise<Float32Array> {
  const session = await ort.InferenceSession.create(model, OPTIONS);
  try {
    const input = new ort.Tensor('float32', seeded(dims.reduce((a, b) => a * b)), dims);
    const output = await session.run({ [session.inputNames[0] ?? 'x']: input });
    return output[session.outputNames[0] ?? '']?.data as Float32Array;
  } finally {
    await session.release();
  }
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  assert.equal(a.length, b.length);
  return a.reduce((max, v, i) => Math.max(max, Math.abs(v - (b[i] ?? NaN))), 0);
}

function nodeCount(model: Uint8Array, opType: string): number {
  return onnx.ModelProto.decode(model).graph?.node?.filter((n) => n.opType === opType).length ?? 0;
}

describe('graph folding of the PP-OCR models', () => {
  const paths = defaultModelPaths();
  const cases: { name: string; file: string; dims: number[]; counts: FoldCounts }[] = [
    {
      name: 'recogniser',
      file: paths.recognition,
      dims: [1, 3, 48, 320],
      counts: { convAffine: 28, hardSwish: 28, inputAffine: 25 },
    },
    {
      name: 'detector',
      file: paths.detection,
      dims: [1, 3, 320, 480],
      counts: { convAffine: 28, hardSwish: 24, inputAffine: 20 },
    },
    {
      name: 'direction classifier',
      file: paths.classification,
      dims: [2, 3, 48, 192],
      counts: { convAffine: 0, hardSwish: 18, inputAffine: 0 },
    },
  ];

  for (const c of cases) {
    it(`${c.name}: rewritten, and computes what the exported graph computes`, async () => {
      const original = await readFile(c.file);
      const folded = foldPaddleGraph(original);
      assert.deepEqual(folded.counts, c.counts);
      // Each rewrite takes out its own operators: a hard-swish its Add, Clip and Div; an affine
      // step its Mul, and its Add (or turns it into a convolution).
      const { convAffine, hardSwish, inputAffine } = c.counts;
      assert.equal(nodeCount(folded.bytes, 'Div'), nodeCount(original, 'Div') - hardSwish);
      assert.equal(nodeCount(folded.bytes, 'Clip'), nodeCount(original, 'Clip') - hardSwish);
      assert.equal(
        nodeCount(folded.bytes, 'HardSigmoid'),
        nodeCount(original, 'HardSigmoid') + hardSwish,
      );
      assert.equal(
        nodeCount(folded.bytes, 'Mul'),
        nodeCount(original, 'Mul') - convAffine - inputAffine,
      );
      assert.equal(
        nodeCount(folded.bytes, 'Add'),
        nodeCount(original, 'Add') - convAffine - hardSwish - inputAffine,
      );
      const [before, after] = [await run(original, c.dims), await run(folded.bytes, c.dims)];
      assert.ok(
        maxDifference(before, after) < 1e-4,
        `max difference ${maxDifference(before, after)}`,
      );
    });
  }

  it('recogniser: the same character wins at every step', async () => {
    const original = await readFile(paths.recognition);
    const dims = [1, 3, 48, 640];
    const [before, after] = [
      await run(original, dims),
      await run(foldPaddleGraph(original).bytes, dims),
    ];
    const classes = 6625;
    const best = (p: Float32Array, t: number) => {
      let arg = 0;
      for (let k = 1; k < classes; k += 1) {
        if ((p[t * classes + k] ?? 0) > (p[t * classes + arg] ?? 0)) arg = k;
      }
      return arg;
    };
    assert.equal(before.length % classes, 0);
    for (let t = 0; t < before.length / classes; t += 1)
      assert.equal(best(after, t), best(before, t));
  });
});

/** A small graph built here: x -> Mul(s) -> Add(t) -> Conv(W, b), where W may be shared. */
function affineThenConv(options: { pads: number; sharedWeights: boolean }): Uint8Array {
  const tensor = (name: string, dims: number[], values: Float32Array) => {
    const t = onnx.TensorProto.create({ name, dims, dataType: onnx.TensorProto.DataType.FLOAT });
    t.rawData = new Uint8Array(values.buffer.slice(0));
    return t;
  };
  const ints = (name: string, values: number[]) =>
    onnx.AttributeProto.create({
      name,
      type: onnx.AttributeProto.AttributeType.INTS,
      ints: values,
    });
  const conv = (input: string, output: string) =>
    onnx.NodeProto.create({
      opType: 'Conv',
      input: [input, 'W', 'b'],
      output: [output],
      attribute: [
        ints('kernel_shape', [3, 3]),
        ints('pads', new Array<number>(4).fill(options.pads)),
      ],
    });
  const nodes = [
    onnx.NodeProto.create({ opType: 'Mul', input: ['x', 's'], output: ['scaled'] }),
    onnx.NodeProto.create({ opType: 'Add', input: ['scaled', 't'], output: ['shifted'] }),
    conv('shifted', 'y'),
  ];
  if (options.sharedWeights) nodes.push(conv('x', 'z'));
  const value = (name: string, dims: number[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: { tensorType: { elemType: 1, shape: { dim: dims.map((d) => ({ dimValue: d })) } } },
    });
  const outSide = 6 + 2 * options.pads - 2;
  const graph = onnx.GraphProto.create({
    name: 'affine-conv',
    node: nodes,
    initializer: [
      tensor('s', [1], Float32Array.of(0.75)),
      tensor('t', [1], Float32Array.of(-0.4)),
      tensor('W', [4, 2, 3, 3], seeded(72, 11)),
      tensor('b', [4], seeded(4, 13)),
    ],
    input: [value('x', [1, 2, 6, 6])],
    output: [
      value('y', [1, 4, outSide, outSide]),
      ...(options.sharedWeights ? [value('z', [1, 4, outSide, outSide])] : []),
    ],
  });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: '', version: 11 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

describe('graph folding rules', () => {
  for (const pads of [0, 1]) {
    it(`folds an affine step into the convolution after it (pads ${pads})`, async () => {
      const original = affineThenConv({ pads, sharedWeights: false });
      const folded = foldPaddleGraph(original);
      assert.equal(folded.counts.inputAffine, 1);
      assert.equal(nodeCount(folded.bytes, 'Mul'), 0);
      // Padding zeros would meet the shift after it, so t is added before a padded convolution.
      assert.equal(nodeCount(folded.bytes, 'Add'), 0);
      assert.equal(nodeCount(folded.bytes, 'Conv'), pads === 0 ? 1 : 2);
      const dims = [1, 2, 6, 6];
      const difference = maxDifference(await run(original, dims), await run(folded.bytes, dims));
      assert.ok(difference < 1e-5, `max difference ${difference}`);
    });
  }

  it('leaves weights that another node reads as they are', async () => {
    const original = affineThenConv({ pads: 0, sharedWeights: true });
    const folded = foldPaddleGraph(original);
    assert.deepEqual(folded.counts, { convAffine: 0, hardSwish: 0, inputAffine: 0 });
    assert.equal(nodeCount(folded.bytes, 'Mul'), 1);
  });
});
