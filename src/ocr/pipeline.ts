/**
 * The OCR pipeline on PP-OCR models: one detection pass over the page, a direction decision per
 * line, one recognition run per line on a crop from the full-resolution page, then split
 * pieces of a line joined. Quads are in the input image's pixels (see geometry.ts).
 *
 * onnxruntime-node's `run()` returns a promise but computes synchronously on the calling
 * thread (measured: the event loop stalls for the whole run), so this runs inside the worker
 * of paddle.ts, never on the server's main thread.
 */
import { readFile } from 'node:fs/promises';
import onnxProto from 'onnx-proto';
import { performance } from 'node:perf_hooks';
import { ort } from './runtime.js';
import { DirectionClassifier } from './classify.js';
import { detectText, type DetectedBox, type DetectorSessions } from './detect.js';
import { readingFrame, type ReadingFrame, type RotatedRect } from '../domain/geometry.js';
import { foldPaddleGraph, foldPaddleModel } from './graph-folding.js';
import { LineReader, type LineTask, type ReadLine } from './lines.js';
import { mergeLines } from './merge.js';
import { PageDetector } from './page-detector.js';
import { addCtcHeadTo } from './ctc-head.js';
import { defaultModelPaths, loadCharset, sessionOptions } from './models.js';
import type { Settings, StageTimings } from './options.js';
import { axisOf, baseOrientation, flipped, nearestDecided, type Axis } from './orientation.js';
import { refineRect } from './refine.js';
import { Recogniser } from './recognise.js';
import { withSidewaysLines } from './sideways.js';
import { readShared, type HelpResult, type LineHelper } from './peers.js';
import { sortLines, toTextLine } from './text-lines.js';
import type { Orientation } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';
import type { PageText, TextLine } from '../domain/text-layer.js';
import type { ReadHints, ReadPurpose } from './types.js';

const { onnx } = onnxProto;

/**
 * How long the page detector keeps its buffers after the last big page (page-detector.ts): a
 * multi-page scan or a run of pages keeps them; a server that stops reading pages gives them
 * back within half a minute.
 */
const PAGE_DETECTOR_IDLE_MS = 30_000;

/** A line read with this confidence can lend its orientation to a near-square box beside it. */
const GUIDE_CONFIDENCE = 0.8;
/**
 * A page whose confidently classified lines point one way this many times as often as the other
 * has a direction: a line the classifier turns against it is read the page's way and, unless
 * that reads clearly (CLEAR_READING), the other way up too, kept only if it reads clearly
 * better. An MRZ row of chevrons and capitals was called upside down with certainty on an
 * upright page and read as nonsense just as confidently (0.735 against 0.728), which left its
 * passport uncovered.
 */
const PAGE_MAJORITY = 4;
const PAGE_MAJORITY_LINES = 5;
const AGAINST_MAJORITY_MARGIN = 0.1;
/** Near-square boxes without a guide read four ways each, the largest first; see read(). */
const EACH_WAY_BOXES = 16;
const ALL_WAYS: readonly Orientation[] = [0, 90, 180, 270];

/** The orientation in which the most confidence was read (upright when nothing was). */
function likeliestWay(lines: readonly ReadLine[]): Orientation {
  const sums = new Map<Orientation, number>();
  for (const line of lines) {
    const way = line.frame.orientation;
    sums.set(way, (sums.get(way) ?? 0) + line.confidence);
  }
  let best: Orientation = 0;
  for (const [way, sum] of sums) if (sum > (sums.get(best) ?? 0)) best = way;
  return best;
}

function readsAsText(line: ReadLine): boolean {
  return line.chars.some((c) => /[\p{L}\p{N}]/u.test(c.text));
}

/**
 * Near-square boxes with no line beside them, read all four ways, the largest first. A page with
 * more of them than EACH_WAY_BOXES (dots, a halftone, a pattern: a 9 KB PDF of 2,000 dots took
 * 20 s reading each four ways) reads the rest the way its largest read best, and only if one of
 * those read clearly as a letter or digit: marks that read as punctuation, as a doubtful letter
 * or not at all are not text, nor are the smaller marks beside them.
 */
async function readUnguided(
  rects: RotatedRect[],
  read: (frames: readonly ReadingFrame[]) => Promise<ReadLine>,
): Promise<ReadLine[]> {
  const largestFirst = rects.sort((a, b) => b.width * b.height - a.width * a.height);
  const sampled: ReadLine[] = [];
  for (const rect of largestFirst.slice(0, EACH_WAY_BOXES)) {
    sampled.push(await read(ALL_WAYS.map((o) => readingFrame(rect, o))));
  }
  if (!sampled.some((line) => line.confidence >= GUIDE_CONFIDENCE && readsAsText(line))) {
    return sampled;
  }
  const pageWay = likeliestWay(sampled);
  const rest: ReadLine[] = [];
  for (const rect of largestFirst.slice(EACH_WAY_BOXES)) {
    rest.push(await read([readingFrame(rect, pageWay)]));
  }
  return [...sampled, ...rest];
}

/** Lines read on `image` as the OCR text of page `page`, in the image's pixels. */
function pageTextOf(image: RasterImage, page: number, lines: TextLine[]): PageText {
  return { page, width: image.width, height: image.height, unit: 'px', source: 'ocr', lines };
}

/** A box and the frames worth reading it in (none when its shape cannot tell its axis). */
interface Candidate extends LineTask {
  readonly rect: RotatedRect;
}

export class PaddlePipeline {
  private closed = false;
  /** Other lanes that may read part of a page's lines (peers.ts); none until they are joined. */
  helper: LineHelper | undefined;

  constructor(
    private readonly sessions: readonly ort.InferenceSession[],
    private readonly detectors: DetectorSessions,
    private readonly classifier: DirectionClassifier,
    private readonly recogniser: Recogniser,
    /** The same model with a crop buffer of its own, for lines read for another lane. */
    private readonly helpRecogniser: Recogniser,
    private readonly settings: Settings,
  ) {}

  /** Reads another lane's lines on this lane's recogniser (peers.ts). */
  async help(
    image: RasterImage,
    purpose: ReadPurpose,
    tasks: readonly LineTask[],
  ): Promise<HelpResult> {
    if (this.closed) throw new Error('The OCR pipeline is closed.');
    checkImage(image);
    const reader = new LineReader(this.helpRecogniser, image, purpose);
    const lines = await reader.readAll(tasks);
    return { lines, runs: reader.runs, columns: reader.columns };
  }

  /** Reads the page; the timings hold no text. */
  async read(
    image: RasterImage,
    page: number,
    purpose: ReadPurpose = 'text',
    hints: ReadHints = {},
  ): Promise<{ text: PageText; timings: StageTimings }> {
    if (this.closed) throw new Error('The OCR pipeline is closed.');
    checkImage(image);
    if (hints.lines !== undefined) return this.readKnownLines(image, page, purpose, hints.lines);
    const t0 = performance.now();
    const { detection: settings } = this.settings;
    const sizing =
      purpose === 'document' ? { ...settings, minScale: settings.documentMinScale } : settings;
    const detection = await detectText(this.detectors, image, sizing);
    const tDetected = performance.now();
    const boxes =
      this.settings.orientations && hints.sideways !== false
        ? await withSidewaysLines(
            image,
            detection.boxes,
            this.settings.elongation,
            async (turned) => (await detectText(this.detectors, turned, sizing)).boxes,
          )
        : detection.boxes;
    const t1 = performance.now();
    const candidates = await this.candidates(image, boxes);
    const t2 = performance.now();
    const reader = new LineReader(this.recogniser, image, purpose);
    const readAll = (tasks: readonly LineTask[]) =>
      readShared(reader, this.helper, image, purpose, tasks, this.settings.recognition.height);
    // Boxes whose shape gives their axis first, each read until one way reads clearly; then the
    // near-square ones borrow the orientation of the nearest line that was read with confidence.
    const known = candidates.filter((c) => c.frames.length > 0);
    const undecided = candidates.filter((c) => c.frames.length === 0).map((c) => c.rect);
    const decided = (await readAll(known.map((c) => ({ ...c, untilClear: true })))).map(
      (line, i) => ({ ...line, rect: (known[i] as Candidate).rect }),
    );
    const guides = decided.filter((line) => line.confidence >= GUIDE_CONFIDENCE);
    const guided: LineTask[] = [];
    const unguided: RotatedRect[] = [];
    for (const rect of undecided) {
      const neighbour = guides[nearestDecided(rect, guides, 4) ?? -1];
      if (neighbour === undefined) unguided.push(rect);
      else guided.push({ frames: [readingFrame(rect, neighbour.frame.orientation)] });
    }
    const lines: ReadLine[] = [
      ...decided,
      ...(await readAll(guided)),
      ...(await readUnguided(unguided, (frames) => reader.read({ frames }))),
    ];
    const t3 = performance.now();
    const kept = lines.filter(
      (l) => l.chars.length > 0 && l.confidence >= this.settings.minLineConfidence,
    );
    const merged = mergeLines(kept, this.settings.merge).map(toTextLine);
    const text = pageTextOf(image, page, sortLines(merged));
    const t4 = performance.now();
    return {
      text,
      timings: {
        detection: t1 - t0,
        sideways: t1 - tDetected,
        orientation: t2 - t1,
        recognition: t3 - t2,
        total: t4 - t0,
        boxes: boxes.length,
        recognitionRuns: reader.runs,
        recognitionColumns: reader.columns,
        peerRuns: reader.peerRuns,
        detectionInputs: detection.passes.map((p) => `${p.width}x${p.height}`).join(' + '),
      },
    };
  }

  /**
   * Reads lines whose frames an earlier reading found (ReadHints.lines): one recognition each,
   * nothing detected, classified or merged; one line per frame, in their order. No confidence
   * threshold: a caller that looks for characters that must be gone (the re-read) counts a
   * doubtful reading of them too.
   */
  private async readKnownLines(
    image: RasterImage,
    page: number,
    purpose: ReadPurpose,
    frames: readonly ReadingFrame[],
  ): Promise<{ text: PageText; timings: StageTimings }> {
    const t0 = performance.now();
    const reader = new LineReader(this.recogniser, image, purpose);
    const lines = await reader.readAll(frames.map((frame) => ({ frames: [frame] })));
    const text = pageTextOf(image, page, lines.map(toTextLine));
    const ms = performance.now() - t0;
    return {
      text,
      timings: {
        detection: 0,
        sideways: 0,
        orientation: 0,
        recognition: ms,
        total: ms,
        boxes: 0,
        recognitionRuns: reader.runs,
        recognitionColumns: reader.columns,
        peerRuns: reader.peerRuns,
        detectionInputs: '',
      },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.sessions.map((s) => s.release()), this.detectors.page.close()]);
  }

  /**
   * Each box with the frames worth reading, most likely first; no frames when its shape cannot
   * tell its axis. Boxes whose axis is known are tightened across their text first.
   */
  private async candidates(
    image: RasterImage,
    boxes: readonly DetectedBox[],
  ): Promise<Candidate[]> {
    const { orientations, elongation, directionCertainty, refine } = this.settings;
    const sized = boxes.map((box) => {
      const axis: Axis = orientations ? axisOf(box.rect, elongation) : 'horizontal';
      const rect =
        axis === 'unknown' || refine.bandScale <= 0
          ? box.rect
          : refineRect(image, box.rect, axis === 'vertical', refine);
      return { rect, axis };
    });
    if (!orientations) return sized.map(({ rect }) => ({ rect, frames: [readingFrame(rect, 0)] }));
    const known = sized.filter((b) => b.axis !== 'unknown');
    const base = known.map((b) => readingFrame(b.rect, baseOrientation(b.axis)));
    const upsideDown = await this.classifier.upsideDown(image, base);
    const decided = new Map<RotatedRect, Candidate>();
    const sure = (p: number) => p >= directionCertainty || p <= 1 - directionCertainty;
    const turnedCount = upsideDown.filter((p) => p >= directionCertainty).length;
    const uprightCount = upsideDown.filter((p) => p <= 1 - directionCertainty).length;
    const pageTurned = (count: number, other: number) =>
      count >= PAGE_MAJORITY_LINES && count >= PAGE_MAJORITY * other;
    const pageWay = pageTurned(uprightCount, turnedCount)
      ? 'upright'
      : pageTurned(turnedCount, uprightCount)
        ? 'turned'
        : null;
    known.forEach((b, i) => {
      const upright = base[i] as ReadingFrame;
      const p = upsideDown[i] ?? 0;
      const turned = readingFrame(b.rect, flipped(upright.orientation));
      const lineTurned = p > 0.5;
      let candidate: Candidate;
      if (pageWay !== null && lineTurned !== (pageWay === 'turned')) {
        // Against the page (or unsure): the page's way first, the other kept if clearly better.
        const [first, second] = pageWay === 'turned' ? [turned, upright] : [upright, turned];
        candidate = { rect: b.rect, frames: [first, second], margin: AGAINST_MAJORITY_MARGIN };
      } else if (!sure(p)) {
        candidate = { rect: b.rect, frames: lineTurned ? [turned, upright] : [upright, turned] };
      } else {
        candidate = lineTurned
          ? { rect: b.rect, frames: [turned], fallback: upright }
          : { rect: b.rect, frames: [upright], fallback: turned };
      }
      decided.set(b.rect, candidate);
    });
    return sized.map(({ rect }) => decided.get(rect) ?? { rect, frames: [] });
  }
}

function checkImage(image: RasterImage): void {
  const { width, height, channels, pixels } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new Error('The image to read has no pixels.');
  }
  if (pixels.length < width * height * channels) {
    throw new Error('The image buffer is shorter than its width, height and channels say.');
  }
}

/** Loads the three models; the pipeline blocks its thread while a model runs (see above). */
export async function createPaddlePipeline(settings: Settings): Promise<PaddlePipeline> {
  const paths = { ...defaultModelPaths(), ...settings.models };
  const threads = settings.threads;
  const options = sessionOptions({ intraOpThreads: threads, spinning: settings.spinning });
  const recognition = sessionOptions({
    intraOpThreads: threads,
    spinning: settings.recognitionSpinning,
  });
  const prepare = async (file: string) => {
    const bytes = await readFile(file);
    return settings.foldGraphs ? foldPaddleGraph(bytes).bytes : bytes;
  };
  // The recogniser reads its steps' summary, not the softmax (ctc-head.ts). Its 10 MB are
  // decoded and encoded once for both changes (each pass took 100-170 ms of every start).
  const recogniserModel = onnx.ModelProto.decode(await readFile(paths.recognition));
  if (settings.foldGraphs) foldPaddleModel(recogniserModel);
  const charset = await loadCharset(paths.dictionary, addCtcHeadTo(recogniserModel));
  const recogniserBytes = onnx.ModelProto.encode(recogniserModel).finish();
  // One detector graph, read and folded once, for both detector sessions (detect.ts).
  const [detection, classification] = await Promise.all([
    prepare(paths.detection),
    prepare(paths.classification),
  ]);
  const sessions = await Promise.all([
    ort.InferenceSession.create(classification, options),
    ort.InferenceSession.create(recogniserBytes, recognition),
    ort.InferenceSession.create(detection, options),
  ]);
  const [classifier, recogniser, photo] = sessions;
  const page = new PageDetector(
    () => ort.InferenceSession.create(detection, { ...options, enableMemPattern: false }),
    PAGE_DETECTOR_IDLE_MS,
  );
  return new PaddlePipeline(
    sessions,
    { photo, page },
    new DirectionClassifier(classifier),
    new Recogniser(recogniser, charset, settings.recognition),
    new Recogniser(recogniser, charset, settings.recognition),
    settings,
  );
}
