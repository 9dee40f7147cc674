/** The read step's OCR engine: import from here rather than from the modules behind it. */
export type * from './types.js';
export { createPaddleOcr, PaddleOcr } from './paddle.js';
export {
  DEFAULT_DETECTION,
  DEFAULT_MERGE,
  DEFAULT_RECOGNITION,
  DEFAULT_REFINE,
  type PaddleOcrOptions,
  type StageTimings,
} from './options.js';
export type { DetectionSettings } from './detect.js';
export type { RecognitionSettings } from './recognise.js';
export type { MergeSettings } from './merge.js';
export type { RefineSettings } from './refine.js';
export type { ModelPaths } from './models.js';
