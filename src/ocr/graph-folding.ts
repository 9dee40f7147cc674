/**
 * Exact algebraic simplification of the PP-OCRv4 graphs as paddle2onnx exported them, done once
 * when a model is loaded. Their PP-LCNetV3 backbone follows every convolution with a learnable
 * affine block (a scalar multiply and add), a hard-swish spelt as four element-wise operators
 * (x * clip(x + 3, 0, 6) / 6) and a second affine block. onnxruntime fuses none of these (its
 * Conv+Mul fusion wants an initializer on the right, these are Constant nodes on the left), so
 * half of the recogniser's time went on memory-bound element-wise passes (profiled: Conv 33%,
 * Mul 20%, Add 16%, Clip 7%, Div 6%). Rewritten here:
 *
 * 1. Conv -> Mul(s) -> Add(t) becomes one Conv with weights s*W and bias s*b + t.
 * 2. The spelt-out hard-swish becomes HardSigmoid(alpha 1/6, beta 1/2) -> Mul, which
 *    onnxruntime fuses into the convolution before it.
 * 3. Mul(s) -> Add(t) -> Conv: s goes into the weights (scaling commutes with zero padding);
 *    t into the bias only when the convolution pads nothing, else t/s is still added before it.
 *
 * Each rewrite is the same function up to float rounding (the models' outputs differ by about
 * 1e-6; test/ocr/graph-folding.test.ts). A pattern that does not match exactly is left as it is.
 * onnxruntime has no such pass and ONNX's optimiser is Python-only; the protobuf is read with
 * `onnx-proto`.
 */
import os from 'node:os';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/*
 * The parts of the messages used here. A decoded protobufjs message has every field (defaults
 * sit on its prototype) though the package's typings mark them all optional.
 */
type Int64 = number | { toNumber(): number };
interface Tensor {
  name: string;
  dims: Int64[];
  dataType: number;
  floatData: number[];
  rawData: Uint8Array;
}
interface Attribute {
  name: string;
  type: number;
  f: number;
  s: Uint8Array;
  i: Int64;
  ints: Int64[];
  t?: Tensor | null;
}
interface NodeProto {
  opType: string;
  input: string[];
  output: string[];
  attribute: Attribute[];
}
interface Graph {
  node: NodeProto[];
  initializer: Tensor[];
  output: { name: string }[];
  valueInfo: { name: string }[];
}

export interface FoldCounts {
  /** Affine blocks folded into the convolution before them. */
  readonly convAffine: number;
  /** Hard-swish activations rewritten as HardSigmoid and Mul. */
  readonly hardSwish: number;
  /** Affine blocks folded into the convolution after them (in part when it pads). */
  readonly inputAffine: number;
}

export interface FoldedModel {
  readonly bytes: Uint8Array;
  readonly counts: FoldCounts;
}

export function foldPaddleGraph(bytes: Uint8Array): FoldedModel {
  const model = onnx.ModelProto.decode(bytes);
  if (!model.graph) return { bytes, counts: { convAffine: 0, hardSwish: 0, inputAffine: 0 } };
  const counts = foldPaddleModel(model);
  return { bytes: onnx.ModelProto.encode(model).finish(), counts };
}

/** foldPaddleGraph on a decoded model, changed in place (one decoding for several changes). */
export function foldPaddleModel(model: onnxProto.onnx.ModelProto): FoldCounts {
  const graph = model.graph as unknown as Graph | null | undefined;
  if (!graph) return { convAffine: 0, hardSwish: 0, inputAffine: 0 };
  const folder = new GraphFolder(graph);
  const counts = {
    convAffine: folder.rewriteEach('Conv', (conv) => folder.foldConvAffine(conv)),
    hardSwish: folder.rewriteEach('Add', (add) => folder.fuseHardSwish(add)),
    inputAffine: folder.rewriteEach('Mul', (mul) => folder.foldInputAffine(mul)),
  };
  folder.dropUnused();
  return counts;
}

const FLOAT: number = onnx.TensorProto.DataType.FLOAT;

class GraphFolder {
  private readonly constants = new Map<string, Tensor>();
  private readonly removed = new Set<NodeProto>();
  private consumers = new Map<string, NodeProto[]>();
  private readonly graphOutputs: Set<string>;
  private added = 0;

  constructor(private readonly graph: Graph) {
    for (const node of graph.node) {
      const value = node.opType === 'Constant' ? node.attribute[0]?.t : undefined;
      const name = node.output[0];
      if (value && name !== undefined) this.constants.set(name, value);
    }
    for (const tensor of graph.initializer) this.constants.set(tensor.name, tensor);
    this.graphOutputs = new Set(graph.output.map((o) => o.name));
  }

  /**
   * One pass: tries `rewrite` on every live node of `opType` (each rewrite says whether it
   * matched and rewrote), with the consumers indexed afresh; how many were rewritten.
   */
  rewriteEach(opType: string, rewrite: (node: NodeProto) => boolean): number {
    this.index();
    let count = 0;
    for (const node of this.live(opType)) if (rewrite(node)) count += 1;
    return count;
  }

  /** Conv -> Mul(s) -> Add(t) => Conv(s*W, s*b + t). */
  foldConvAffine(conv: NodeProto): boolean {
    const convOut = conv.output[0] ?? '';
    const mul = this.soleConsumer(convOut, 'Mul');
    const step = mul && this.affineStep(mul, convOut);
    const weights = this.ownedFloats(conv.input[1], conv);
    if (!mul || !step || !weights) return false;
    const { s, t, add } = step;
    const outChannels = int(weights.tensor.dims[0] ?? 0);
    const bias = this.biasOf(conv, outChannels);
    if (!bias) return false;
    weights.values.forEach((w, i) => (weights.values[i] = w * s));
    bias.values.forEach((b, i) => (bias.values[i] = b * s + t));
    store(weights.tensor, weights.values);
    store(bias.tensor, bias.values);
    conv.output[0] = add.output[0] ?? convOut;
    this.removed.add(mul).add(add);
    return true;
  }

  /** Add(x, 3) -> Clip(0, 6) -> Mul(x, .) -> Div(., 6) => HardSigmoid(x; 1/6, 1/2) -> Mul(x, .). */
  fuseHardSwish(add: NodeProto): boolean {
    const x = add.input.find((name) => this.scalar(name) === undefined);
    if (x === undefined || this.scalarOperand(add, x) !== 3) return false;
    const clip = this.soleConsumer(add.output[0] ?? '', 'Clip');
    const [low, high] = clip ? this.clipBounds(clip) : [];
    if (!clip || low !== 0 || high !== 6) return false;
    const mul = this.soleConsumer(clip.output[0] ?? '', 'Mul');
    if (!mul || !mul.input.includes(x) || !mul.input.includes(clip.output[0] ?? '')) return false;
    const div = this.soleConsumer(mul.output[0] ?? '', 'Div');
    if (!div || div.input[0] !== mul.output[0] || this.scalar(div.input[1]) !== 6) return false;
    add.opType = 'HardSigmoid';
    add.input = [x];
    add.attribute = [floatAttribute('alpha', 1 / 6), floatAttribute('beta', 0.5)];
    add.output = [clip.output[0] ?? ''];
    mul.output = [div.output[0] ?? ''];
    this.removed.add(clip).add(div);
    return true;
  }

  /** Mul(x, s) -> Add(t) -> Conv => Conv(s*W) on x, t in its bias or, if it pads, added before it. */
  foldInputAffine(mul: NodeProto): boolean {
    const x = mul.input.find((name) => this.scalar(name) === undefined);
    const step = x === undefined ? undefined : this.affineStep(mul, x);
    if (x === undefined || !step || step.s === 0) return false;
    const { s, t, add } = step;
    const conv = this.soleConsumer(add.output[0] ?? '', 'Conv');
    if (!conv || conv.input[0] !== add.output[0]) return false;
    const weights = this.ownedFloats(conv.input[1], conv);
    if (!weights) return false;
    const outChannels = int(weights.tensor.dims[0] ?? 0);
    const padded = (attributeInts(conv, 'pads') ?? []).some((p) => p !== 0);
    const autoPad = attributeString(conv, 'auto_pad');
    if (autoPad !== undefined && autoPad !== 'NOTSET' && autoPad !== 'VALID') return false;
    const channels = int(weights.tensor.dims[1] ?? 0) * (attributeInt(conv, 'group') ?? 1);
    if (padded && !(channels > 0)) return false;
    const bias = padded ? undefined : this.biasOf(conv, outChannels);
    if (!padded && !bias) return false;
    const perOutput = weights.values.length / outChannels;
    if (bias) {
      for (let o = 0; o < outChannels; o += 1) {
        let sum = 0;
        for (let k = 0; k < perOutput; k += 1) sum += weights.values[o * perOutput + k] ?? 0;
        bias.values[o] = (bias.values[o] ?? 0) + t * sum;
      }
      store(bias.tensor, bias.values);
    }
    weights.values.forEach((w, i) => (weights.values[i] = w * s));
    store(weights.tensor, weights.values);
    if (padded) {
      // x + t/s as a 1x1 depthwise convolution: onnxruntime keeps it in its blocked (NCHWc)
      // layout, where an Add made it convert the tensor out and back (measured: 11% faster).
      const base = add.output[0] ?? '';
      const ones = new Float32Array(channels).fill(1);
      add.opType = 'Conv';
      add.input = [
        x,
        this.constant(`${base}.unit`, [channels, 1, 1, 1], ones),
        this.constant(`${base}.shift`, [channels], new Float32Array(channels).fill(t / s)),
      ];
      add.attribute = [intAttribute('group', channels), intsAttribute('kernel_shape', [1, 1])];
      this.removed.add(mul);
    } else {
      conv.input[0] = x;
      this.removed.add(mul).add(add);
    }
    return true;
  }

  /** Removes the rewritten nodes, then Constants nothing reads any more. */
  dropUnused(): void {
    const kept = this.graph.node.filter((node) => !this.removed.has(node));
    const read = new Set(kept.flatMap((node) => node.input));
    const produced = new Set<string>();
    const live = kept.filter((node) => {
      const out = node.output[0] ?? '';
      const used = node.opType !== 'Constant' || read.has(out) || this.graphOutputs.has(out);
      if (used) node.output.forEach((name) => produced.add(name));
      return used;
    });
    this.graph.node = live;
    this.graph.valueInfo = this.graph.valueInfo.filter((info) => produced.has(info.name));
  }

  /** `mul` scaling `operand` by a constant s, read only by an Add of a constant t: x*s + t. */
  private affineStep(
    mul: NodeProto,
    operand: string,
  ): { s: number; t: number; add: NodeProto } | undefined {
    const s = this.scalarOperand(mul, operand);
    const add = this.soleConsumer(mul.output[0] ?? '', 'Add');
    const t = add && this.scalarOperand(add, mul.output[0] ?? '');
    return s === undefined || t === undefined || !add ? undefined : { s, t, add };
  }

  /** Clip's bounds: attributes up to opset 10, inputs from 11. */
  private clipBounds(clip: NodeProto): [number | undefined, number | undefined] {
    if (clip.input.length === 1) return [attribute(clip, 'min'), attribute(clip, 'max')];
    return [this.scalar(clip.input[1]), this.scalar(clip.input[2])];
  }

  private index(): void {
    this.consumers = new Map();
    for (const node of this.graph.node) {
      if (this.removed.has(node)) continue;
      for (const name of node.input) {
        const list = this.consumers.get(name) ?? [];
        list.push(node);
        this.consumers.set(name, list);
      }
    }
  }

  private live(opType: string): NodeProto[] {
    return this.graph.node.filter((node) => node.opType === opType && !this.removed.has(node));
  }

  private soleConsumer(name: string, opType: string): NodeProto | undefined {
    const list = this.consumers.get(name) ?? [];
    const node = list[0];
    if (list.length !== 1 || !node || this.graphOutputs.has(name)) return undefined;
    return node.opType === opType && !this.removed.has(node) ? node : undefined;
  }

  /** The other operand of a binary node, when it is a one-element float constant. */
  private scalarOperand(node: NodeProto, operand: string): number | undefined {
    if (node.input.length !== 2 || !node.input.includes(operand)) return undefined;
    return this.scalar(node.input[0] === operand ? node.input[1] : node.input[0]);
  }

  private scalar(name: string | undefined): number | undefined {
    const tensor = name === undefined ? undefined : this.constants.get(name);
    const values = tensor && floatsOf(tensor);
    return values && values.length === 1 ? values[0] : undefined;
  }

  /** A float constant read by `owner` alone, so that changing it changes nothing else. */
  private ownedFloats(
    name: string | undefined,
    owner: NodeProto,
  ): { tensor: Tensor; values: Float32Array } | undefined {
    const tensor = name === undefined ? undefined : this.constants.get(name);
    const readers = name === undefined ? [] : (this.consumers.get(name) ?? []);
    if (!tensor || readers.length !== 1 || readers[0] !== owner) return undefined;
    const values = floatsOf(tensor);
    return values ? { tensor, values } : undefined;
  }

  /** The convolution's bias, added as zeros when it has none. */
  private biasOf(
    conv: NodeProto,
    outChannels: number,
  ): { tensor: Tensor; values: Float32Array } | undefined {
    if (conv.input.length >= 3) {
      const bias = this.ownedFloats(conv.input[2], conv);
      return bias && bias.values.length === outChannels ? bias : undefined;
    }
    const name = this.constant(
      `${conv.output[0] ?? 'conv'}.bias`,
      [outChannels],
      new Float32Array(outChannels),
    );
    conv.input.push(name);
    this.consumers.set(name, [conv]);
    const tensor = this.constants.get(name);
    return tensor ? { tensor, values: new Float32Array(outChannels) } : undefined;
  }

  /** A new Constant node, placed first so that the graph stays in topological order. */
  private constant(base: string, dims: number[], values: Float32Array): string {
    this.added += 1;
    const name = `${base}.folded${this.added}`;
    const tensor = onnx.TensorProto.create({ name, dims, dataType: FLOAT }) as unknown as Tensor;
    store(tensor, values);
    const value = onnx.AttributeProto.create({
      name: 'value',
      type: onnx.AttributeProto.AttributeType.TENSOR,
      t: tensor as unknown as Parameters<typeof onnx.TensorProto.create>[0],
    });
    const node = onnx.NodeProto.create({ opType: 'Constant', output: [name], attribute: [value] });
    this.graph.node.unshift(node as unknown as NodeProto);
    this.constants.set(name, tensor);
    return name;
  }
}

/**
 * ONNX stores raw floats little-endian: on a little-endian host (x64 and arm64 among them) the
 * bytes are copied as they are. A float at a time through a DataView was most of the models'
 * preparation at every start (docs/development.md).
 */
const LITTLE_ENDIAN = os.endianness() === 'LE';

function floatsOf(tensor: Tensor): Float32Array | undefined {
  if (tensor.dataType !== FLOAT) return undefined;
  if (tensor.floatData.length > 0) return Float32Array.from(tensor.floatData);
  const raw = tensor.rawData;
  if (raw.byteLength % 4 !== 0) return undefined;
  // A copy: the decoded bytes may not be 4-byte aligned.
  if (LITTLE_ENDIAN) return new Float32Array(new Uint8Array(raw).buffer);
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  return Float32Array.from({ length: raw.byteLength / 4 }, (_, i) => view.getFloat32(i * 4, true));
}

function store(tensor: Tensor, values: Float32Array): void {
  if (LITTLE_ENDIAN) {
    tensor.rawData = new Uint8Array(
      values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength),
    );
  } else {
    const bytes = new Uint8Array(values.length * 4);
    const view = new DataView(bytes.buffer);
    values.forEach((v, i) => {
      view.setFloat32(i * 4, v, true);
    });
    tensor.rawData = bytes;
  }
  tensor.floatData = [];
}

function floatAttribute(name: string, f: number): Attribute {
  const type = onnx.AttributeProto.AttributeType.FLOAT;
  return onnx.AttributeProto.create({ name, type, f }) as unknown as Attribute;
}

function attribute(node: NodeProto, name: string): number | undefined {
  const found = node.attribute.find((a) => a.name === name);
  return found?.type === onnx.AttributeProto.AttributeType.FLOAT ? found.f : undefined;
}

function attributeInts(node: NodeProto, name: string): number[] | undefined {
  return node.attribute.find((a) => a.name === name)?.ints.map(int);
}

function attributeInt(node: NodeProto, name: string): number | undefined {
  const found = node.attribute.find((a) => a.name === name);
  return found?.type === onnx.AttributeProto.AttributeType.INT ? int(found.i) : undefined;
}

function intAttribute(name: string, i: number): Attribute {
  const type = onnx.AttributeProto.AttributeType.INT;
  return onnx.AttributeProto.create({ name, type, i }) as unknown as Attribute;
}

function intsAttribute(name: string, ints: number[]): Attribute {
  const type = onnx.AttributeProto.AttributeType.INTS;
  return onnx.AttributeProto.create({ name, type, ints }) as unknown as Attribute;
}

/** int64 fields decode as Long objects (protobufjs with long.js installed). */
function int(value: Int64): number {
  return typeof value === 'number' ? value : value.toNumber();
}

function attributeString(node: NodeProto, name: string): string | undefined {
  const found = node.attribute.find((a) => a.name === name);
  return found ? Buffer.from(found.s).toString('utf8') : undefined;
}
