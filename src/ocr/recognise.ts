/**
 * Line recognition with PP-OCR's CRNN/SVTR network: the line's crop at height 48, one run per
 * line (batching pads every line to the widest and measured slower on 2 cores), then CTC
 * decoding with character positions mapped back to the line's reading frame.
 */
import { ort } from './runtime.js';
import { cropFrame } from './crop.js';
import { CTC_OUTPUTS } from './ctc-head.js';
import { decodeCtc, type CtcSteps, type DecodedChar } from './ctc.js';
import { inkProfile, longestBlank, type InkProfile } from './ink.js';
import type { ReadingFrame } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';
import type { ReadPurpose } from './types.js';

export interface RecognitionSettings {
  /** Crop height the network was trained on. */
  readonly height: number;
  /** Widest crop; longer lines are squeezed horizontally (run time grows with width). */
  readonly maxWidth: number;
  /** Narrowest crop the network is given; shorter text is padded. */
  readonly minWidth: number;
  /**
   * Horizontal scale of the crop against the page (1 keeps the aspect). Below 1 squeezes text
   * as the model's training resize squeezes long lines: run time falls with crop width.
   */
  readonly squeeze: number;
  /** The same for reading text (names, addresses): see ReadPurpose in types.ts. */
  readonly textSqueeze: number;
  /** See CtcSettings. */
  readonly spaceEvidence: number;
  readonly spaceGap: number;
  readonly faintSpaceEvidence: number;
  readonly wideSpaceGap: number;
}

/** A recognised character, positioned in page pixels along its line's reading frame. */
export interface FrameChar {
  readonly text: string;
  readonly from: number;
  readonly to: number;
  readonly confidence: number;
}

export interface LineReading {
  readonly chars: readonly FrameChar[];
  /** Mean character confidence; 0 when nothing was read. */
  readonly confidence: number;
  /** Width of the crop the network read. */
  readonly columns: number;
}

export class Recogniser {
  /**
   * One crop buffer, reused line after line: a fresh array per line was 40 MB a dense page for
   * the collector (reads are sequential; each line's crop is done with before the next).
   */
  private buffer = new Float32Array(0);

  constructor(
    private readonly session: ort.InferenceSession,
    private readonly charset: readonly string[],
    private readonly settings: RecognitionSettings,
  ) {}

  async read(image: RasterImage, frame: ReadingFrame, purpose: ReadPurpose): Promise<LineReading> {
    const { height, maxWidth, minWidth } = this.settings;
    const squeeze = purpose === 'numbers' ? this.settings.squeeze : this.settings.textSqueeze;
    const natural = Math.ceil((squeeze * height * frame.length) / Math.max(1, frame.thickness));
    const textWidth = Math.max(1, Math.min(maxWidth, natural));
    // Whole network strides (8 columns per output step) keep the step-to-column map exact.
    const cropWidth = Math.max(minWidth, Math.ceil(textWidth / 8) * 8);
    const size = 3 * height * cropWidth;
    if (this.buffer.length < size) this.buffer = new Float32Array(size);
    const crop = cropFrame(
      image,
      frame,
      textWidth,
      cropWidth,
      height,
      4,
      this.buffer.subarray(0, size),
    );
    const tensor = new ort.Tensor('float32', crop.data, [1, 3, height, cropWidth]);
    const inputName = this.session.inputNames[0] ?? 'x';
    const outputs = await this.session.run({ [inputName]: tensor });
    tensor.dispose();
    // Blank columns are only measured when a gap is in doubt (a few per line at most).
    let ink: InkProfile | undefined;
    const blankRun = (from: number, to: number): number | undefined => {
      ink ??= inkProfile(crop.data, cropWidth, height, textWidth);
      return ink.textHeight > 0 ? longestBlank(ink, from, to) / ink.textHeight : undefined;
    };
    let decoded: DecodedChar[];
    try {
      const summary = ctcSteps(outputs);
      decoded = decodeCtc(summary, this.charset, textWidth, cropWidth, this.settings, blankRun);
    } finally {
      for (const output of Object.values(outputs)) output.dispose();
    }
    const chars = decoded
      .filter((c) => c.text !== '')
      .map((c) => ({
        text: c.text,
        from: c.from / crop.scale,
        to: c.to / crop.scale,
        confidence: c.confidence,
      }));
    const confidence =
      chars.length === 0 ? 0 : chars.reduce((sum, c) => sum + c.confidence, 0) / chars.length;
    return { chars, confidence, columns: cropWidth };
  }
}

/** The steps' summary among the recogniser's outputs (ctc-head.ts). */
function ctcSteps(outputs: ort.InferenceSession.OnnxValueMapType): CtcSteps {
  const best = outputs[CTC_OUTPUTS.best];
  const bestProbability = outputs[CTC_OUTPUTS.bestProbability];
  const space = outputs[CTC_OUTPUTS.space];
  if (best === undefined || bestProbability === undefined || space === undefined) {
    throw new Error('The recognition model lacks the CTC summary outputs (see ctc-head.ts).');
  }
  return {
    best: best.data as Int32Array,
    bestProbability: bestProbability.data as Float32Array,
    space: space.data as Float32Array,
  };
}
