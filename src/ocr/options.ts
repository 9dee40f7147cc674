/**
 * The engine's settings: plain data, so that they cross into the worker thread unchanged.
 * Defaults follow PaddleOCR where it has one; the other values were measured (bench/ocr.ts).
 */
import type { DetectionSettings } from './detect.js';
import type { MergeSettings } from './merge.js';
import type { ModelPaths } from './models.js';
import type { RecognitionSettings } from './recognise.js';
import type { RefineSettings } from './refine.js';

export interface PaddleOcrOptions {
  /**
   * Lanes (lanes.ts): worker threads that each hold the models and read a page; default 1.
   * Two lanes of one thread read more cards a second on 2 cores than one lane of two (measured
   * in bench/mask.ts: 3.7 against 3.1 at four at a time) but hold about 100 MB more at rest and
   * up to 500 MB more at peak on 5-page scans; memory is the scarcer of the two by default.
   */
  readonly lanes?: number;
  /** Threads per model run in each lane; defaults to the cores divided among the lanes. */
  readonly threads?: number;
  /** Let idle detector and classifier threads spin (see SessionSettings); default false. */
  readonly spinning?: boolean;
  /**
   * Let idle recogniser threads spin; default true. The recogniser runs once per line, dozens of
   * short runs back to back, and waking a sleeping pool for each layer cost more than the
   * reading itself (measured: 1200-px card, recognition 488 ms sleeping, 304 ms spinning).
   */
  readonly recognitionSpinning?: boolean;
  readonly models?: Partial<ModelPaths>;
  /**
   * Simplify the models' graphs exactly when they are loaded (graph-folding.ts; default true).
   * false runs them as exported, for comparison.
   */
  readonly foldGraphs?: boolean;
  readonly detection?: Partial<DetectionSettings>;
  readonly recognition?: Partial<RecognitionSettings>;
  readonly merge?: Partial<MergeSettings>;
  readonly refine?: Partial<RefineSettings>;
  /** Read text at 90, 180 and 270 degrees too (default true); false reads every line upright. */
  readonly orientations?: boolean;
  /** How much longer than high a box must be for its shape to give its axis (PaddleOCR: 1.5). */
  readonly elongation?: number;
  /** Classifier certainty below which both flips of a line are read and the better kept. */
  readonly directionCertainty?: number;
  /** Lines whose mean confidence is lower are dropped (PaddleOCR drops below 0.5). */
  readonly minLineConfidence?: number;
  /** Nice value (0-19) for the OCR thread, below the HTTP thread's; default 0 (unchanged). */
  readonly threadNice?: number;
}

export const DEFAULT_DETECTION: DetectionSettings = {
  // PaddleOCR uses 960; with boxes tightened afterwards (refine.ts) 736 read as well, 60 ms sooner.
  maxSide: 736,
  minScale: 0.5,
  // 0.5 read a 150 dpi page at 75 dpi, where thin 10 pt print (Courier) went undetected
  // (measured: 16 of 40 values on a form); 0.75 found them. Pages beyond maxPixels still shrink.
  // Documents only: the card corpora were measured at 0.5, and a rotated line on a 1000-px
  // image was split at 0.75 (test/ocr/paddle.test.ts).
  documentMinScale: 0.75,
  maxPixels: 2_600_000,
  threshold: 0.3,
  // PaddleOCR uses 0.6, which dropped small print turned 90 degrees; junk boxes cost a
  // recognition run and are then dropped by minLineConfidence.
  boxThreshold: 0.5,
  unclipRatio: 1.5,
  minSize: 3,
  maxCandidates: 1000,
};

export const DEFAULT_RECOGNITION: RecognitionSettings = {
  height: 48,
  maxWidth: 1920,
  minWidth: 64,
  // For numbers: 0.8 read more lines exactly than 1 (fewer o/0 confusions) and 20% sooner;
  // 0.6 lost letters. For text, 0.8 dropped capitals of small print in photos ("nil adav").
  squeeze: 0.8,
  textSqueeze: 1,
  spaceEvidence: 0.01,
  spaceGap: 0.25,
  // At squeeze 1, small print's "DOB: 01/01/1990" had its space at 0.003-0.005 (see ctc.ts).
  faintSpaceEvidence: 0.001,
  wideSpaceGap: 0.45,
};

/** The detector splits words at gaps of about one font size; 1.5 line heights rejoins them. */
export const DEFAULT_MERGE: MergeSettings = { maxGap: 1.5, maxShift: 0.25, maxHeightRatio: 1.35 };

/** bandScale 0 turns refinement off. */
export const DEFAULT_REFINE: RefineSettings = { bandScale: 1.35 };

export interface Settings {
  readonly lanes: number;
  readonly threads: number;
  readonly spinning: boolean;
  readonly recognitionSpinning: boolean;
  readonly models: Partial<ModelPaths>;
  readonly foldGraphs: boolean;
  readonly detection: DetectionSettings;
  readonly recognition: RecognitionSettings;
  readonly merge: MergeSettings;
  readonly refine: RefineSettings;
  readonly orientations: boolean;
  readonly elongation: number;
  readonly directionCertainty: number;
  readonly minLineConfidence: number;
  /** Nice value of the OCR thread (and onnxruntime's threads, which inherit it); 0: unchanged. */
  readonly threadNice: number;
}

export function resolveSettings(options: PaddleOcrOptions, cores: number): Settings {
  const lanes = Math.max(1, Math.floor(options.lanes ?? 1));
  return {
    lanes,
    threads: Math.max(1, Math.floor(options.threads ?? cores / lanes)),
    spinning: options.spinning ?? false,
    recognitionSpinning: options.recognitionSpinning ?? true,
    models: options.models ?? {},
    foldGraphs: options.foldGraphs ?? true,
    detection: { ...DEFAULT_DETECTION, ...options.detection },
    recognition: { ...DEFAULT_RECOGNITION, ...options.recognition },
    merge: { ...DEFAULT_MERGE, ...options.merge },
    refine: { ...DEFAULT_REFINE, ...options.refine },
    orientations: options.orientations ?? true,
    elongation: options.elongation ?? 1.5,
    directionCertainty: options.directionCertainty ?? 0.9,
    minLineConfidence: options.minLineConfidence ?? 0.35,
    threadNice: options.threadNice ?? 0,
  };
}

/** Milliseconds spent in each stage of one read, and counts; never any text. */
export interface StageTimings {
  readonly detection: number;
  /** Of `detection`, the second pass over the page turned a quarter (0 when not run: sideways.ts). */
  readonly sideways: number;
  /** Tightening the boxes and the direction classifier. */
  readonly orientation: number;
  readonly recognition: number;
  readonly total: number;
  readonly boxes: number;
  readonly recognitionRuns: number;
  /** Sum of the recogniser's input widths (its run time grows with it). */
  readonly recognitionColumns: number;
  /** Of `recognitionRuns`, those a peer lane ran (peers.ts). */
  readonly peerRuns: number;
  /** Detector input sizes, e.g. "736x480", or one per content region of a big page. */
  readonly detectionInputs: string;
}
