/**
 * Reading one line: the frames the pipeline chose for a box, tried in order until one reads
 * clearly, with the other way up as a second look when the chosen way read poorly. The same rule
 * serves a lane's own reads and the lines it reads for another lane (lanes.ts), so that a line
 * reads alike wherever it is read.
 */
import type { ReadingFrame } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';
import type { RecognisedLine } from './merge.js';
import type { Recogniser } from './recognise.js';
import { trimSpaces } from './text-lines.js';
import type { ReadPurpose } from './types.js';

/**
 * A line the classifier was sure about but that reads worse than this is read the other way up
 * as well: a wrong verdict would otherwise lose the whole line (and any number on it).
 */
const SECOND_LOOK_CONFIDENCE = 0.6;
/**
 * A line whose direction is in doubt is read the likelier way first, and the other way only when
 * that reading is below this confidence. Measured over 30 generated cards, scans and letters:
 * of 64 such lines whose first reading reached 0.8, none read better the other way up; reading
 * both anyway was a fifth of a card photo's recognition time. Near-square boxes, read all four
 * ways, keep reading them all: a lone 6 and 9 read alike upside down.
 */
export const CLEAR_READING = 0.9;

export interface ReadLine extends RecognisedLine {
  readonly confidence: number;
}

/** The frames worth reading for one box, and how to choose among their readings. */
export interface LineTask {
  readonly frames: readonly ReadingFrame[];
  /** The other way up, read only when `frames` read poorly. */
  readonly fallback?: ReadingFrame;
  /** How much better than the first frame a later one must read to be kept instead. */
  readonly margin?: number;
  /** Stop at the first frame that reads clearly (CLEAR_READING). */
  readonly untilClear?: boolean;
}

/** Reads tasks on one image, counting the recogniser's runs and columns. */
export class LineReader {
  runs = 0;
  columns = 0;
  /** Of `runs`, those a peer lane ran for this reader (peers.ts). */
  peerRuns = 0;

  constructor(
    private readonly recogniser: Recogniser,
    private readonly image: RasterImage,
    private readonly purpose: ReadPurpose,
  ) {}

  async read(task: LineTask): Promise<ReadLine> {
    const { frames, fallback, margin = 0, untilClear = false } = task;
    let best: ReadLine | undefined;
    for (const frame of frames) {
      if (untilClear && best !== undefined && best.confidence >= CLEAR_READING) break;
      const reading = await this.recogniser.read(this.image, frame, this.purpose);
      this.runs += 1;
      this.columns += reading.columns;
      if (best === undefined || reading.confidence > best.confidence + margin) {
        best = { frame, chars: trimSpaces(reading.chars), confidence: reading.confidence };
      }
    }
    if (best === undefined) throw new Error('A line task has no frame to read.');
    if (fallback && best.confidence < SECOND_LOOK_CONFIDENCE) {
      const other = await this.read({ frames: [fallback] });
      if (other.confidence > best.confidence) best = other;
    }
    return best;
  }

  /** Reads the tasks one after another, in order. */
  async readAll(tasks: readonly LineTask[]): Promise<ReadLine[]> {
    const lines: ReadLine[] = [];
    for (const task of tasks) lines.push(await this.read(task));
    return lines;
  }
}

/**
 * The recogniser's likely work for a task, in crop columns: the first frame's length at the
 * crop height, plus a run's fixed cost (about 40 columns' worth on 2 cores).
 */
export function taskCost(task: LineTask, height: number): number {
  const frame = task.frames[0];
  if (frame === undefined) return 0;
  return 40 + (height * frame.length) / Math.max(1, frame.thickness);
}

/**
 * Splits tasks into two shares of about equal work (largest first, each to the lighter share),
 * for two lanes to read at once; `second` bears a handicap for its hand-over.
 */
export function splitTasks(
  tasks: readonly LineTask[],
  height: number,
  handicap: number,
): { first: number[]; second: number[] } {
  const order = tasks
    .map((task, index) => ({ index, cost: taskCost(task, height) }))
    .sort((a, b) => b.cost - a.cost || a.index - b.index);
  const first: number[] = [];
  const second: number[] = [];
  let firstLoad = 0;
  let secondLoad = handicap;
  for (const { index, cost } of order) {
    if (firstLoad <= secondLoad) {
      first.push(index);
      firstLoad += cost;
    } else {
      second.push(index);
      secondLoad += cost;
    }
  }
  return { first: first.sort((a, b) => a - b), second: second.sort((a, b) => a - b) };
}
