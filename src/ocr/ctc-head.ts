/**
 * The recogniser's last step moved into its graph: per output step, the winning class, its
 * probability and the space class's probability, which is all that greedy CTC decoding reads
 * (ctc.ts). The exported model returns the whole softmax instead, steps x 6,625 classes of the
 * Chinese dictionary: 240 MB of floats for a dense A4 page, copied out of onnxruntime, scanned
 * in JavaScript and then collected (measured: decoding 55 ms and about 100 ms of garbage
 * collection a page). onnxruntime's TopK with k = 1 keeps the first of equal maxima, as the
 * scan in JavaScript did, so the decoding is unchanged (test/ocr/ctc-head.test.ts).
 */
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** Output names of the summary (one value per step each, shaped [1, steps, 1]). */
export const CTC_OUTPUTS = {
  /** Winning class index (int32). */
  best: 'parda_ctc_best',
  /** Its probability. */
  bestProbability: 'parda_ctc_best_p',
  /** Probability of the space class, the last class (PaddleOCR's use_space_char). */
  space: 'parda_ctc_space',
} as const;

export interface CtcHeadModel {
  readonly bytes: Uint8Array;
  /** Classes of the softmax, as the exported graph declares them. */
  readonly classes: number;
}

export interface CtcHeadOptions {
  /** Keep the softmax as a graph output too (for tests that compare both). */
  readonly keepProbabilities?: boolean;
}

/* The parts used here; a decoded message has every field, though the typings mark them optional. */
interface Graph {
  node: onnxProto.onnx.INodeProto[];
  initializer: onnxProto.onnx.ITensorProto[];
  output: onnxProto.onnx.IValueInfoProto[];
}

/** Appends the summary to a recogniser whose only output is a softmax over classes (last axis). */
export function addCtcHead(bytes: Uint8Array, options: CtcHeadOptions = {}): CtcHeadModel {
  const model = onnx.ModelProto.decode(bytes);
  const classes = addCtcHeadTo(model, options);
  return { bytes: onnx.ModelProto.encode(model).finish(), classes };
}

/** addCtcHead on a decoded model, changed in place; returns the softmax's classes. */
export function addCtcHeadTo(
  model: onnxProto.onnx.ModelProto,
  options: CtcHeadOptions = {},
): number {
  const graph = model.graph as Graph | null | undefined;
  const output = graph?.output[0];
  if (!graph || graph.output.length !== 1 || output === undefined) {
    throw new Error('The recognition model should have exactly one output.');
  }
  const last = output.type?.tensorType?.shape?.dim?.at(-1)?.dimValue;
  const classes =
    last === undefined || last === null ? 0 : typeof last === 'number' ? last : last.toNumber();
  if (!Number.isInteger(classes) || classes < 2) {
    throw new Error('The recognition model does not declare how many classes it outputs.');
  }
  const softmax = output.name ?? '';
  const { AttributeType } = onnx.AttributeProto;
  const { DataType } = onnx.TensorProto;
  const attr = (name: string, i: number) =>
    onnx.AttributeProto.create({ name, type: AttributeType.INT, i });
  const node = (opType: string, input: string[], out: string[], attribute = [attr('axis', 2)]) =>
    onnx.NodeProto.create({ opType, name: `parda_ctc_${out[0]}`, input, output: out, attribute });
  const spaceIndex = 'parda_ctc_space_index';
  const indices = 'parda_ctc_best_int64';
  graph.initializer.push(
    onnx.TensorProto.create({
      name: spaceIndex,
      dataType: DataType.INT64,
      dims: [1],
      int64Data: [classes - 1],
    }),
  );
  graph.node.push(
    // TopK as of opset 1, k an attribute: the models are exported at opset 9.
    node(
      'TopK',
      [softmax],
      [CTC_OUTPUTS.bestProbability, indices],
      [attr('axis', 2), attr('k', 1)],
    ),
    node('Cast', [indices], [CTC_OUTPUTS.best], [attr('to', DataType.INT32)]),
    node('Gather', [softmax, spaceIndex], [CTC_OUTPUTS.space]),
  );
  const info = (name: string, elemType: number) =>
    onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType } } });
  graph.output = [
    info(CTC_OUTPUTS.best, DataType.INT32),
    info(CTC_OUTPUTS.bestProbability, DataType.FLOAT),
    info(CTC_OUTPUTS.space, DataType.FLOAT),
    ...(options.keepProbabilities === true ? graph.output : []),
  ];
  return classes;
}
