/**
 * Where a document's time goes, stage by stage, for benchmarks (bench/mask.ts). A caller
 * that wants the figures runs the work inside `recordStages`; every `timed` step on the way
 * adds its wall time under its name, and OCR readings add what the engine measured inside
 * them. Outside `recordStages` a step costs one AsyncLocalStorage look-up. Only names and
 * numbers are kept: never text, never a value.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

export interface StageTime {
  /** The step's name, after the names of the steps it ran inside ("cover and re-read > ocr detection"). */
  readonly stage: string;
  readonly ms: number;
  /** Counts the step reports (lines recognised, recogniser columns, ...). */
  readonly counts?: Readonly<Record<string, number>>;
}

interface Recording {
  readonly times: StageTime[];
  readonly path: readonly string[];
}

const current = new AsyncLocalStorage<Recording>();

/** Runs `work`, collecting the stages timed inside it. */
export async function recordStages<T>(
  work: () => Promise<T>,
): Promise<{ result: T; stages: StageTime[] }> {
  const times: StageTime[] = [];
  const result = await current.run({ times, path: [] }, work);
  return { result, stages: times };
}

/** Runs one named step; its wall time is recorded when a recording is on. */
export async function timed<T>(stage: string, work: () => Promise<T> | T): Promise<T> {
  const recording = current.getStore();
  if (recording === undefined) return work();
  const path = [...recording.path, stage];
  const started = performance.now();
  try {
    return await current.run({ times: recording.times, path }, work);
  } finally {
    noteStage(stage, performance.now() - started);
  }
}

/** Adds figures measured elsewhere (an OCR worker's stages) under the current step. */
export function noteStage(
  stage: string,
  ms: number,
  counts?: Readonly<Record<string, number>>,
): void {
  const recording = current.getStore();
  if (recording === undefined) return;
  const name = [...recording.path, stage].join(' > ');
  recording.times.push(counts === undefined ? { stage: name, ms } : { stage: name, ms, counts });
}
