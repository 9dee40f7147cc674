/**
 * Greedy CTC decoding that keeps where each character was emitted. Every output step of the
 * recogniser covers a fixed stride of the crop's width, so the steps at which a character
 * wins give its horizontal position: a character spans from the midpoint to its left
 * neighbour's peak to the midpoint to its right neighbour's peak.
 *
 * PP-OCR's Chinese recogniser sometimes leaves out a space after punctuation or between a label
 * and a value ("PAN ABCDE1234F" read as "PANABCDE1234F"). Where it does, two signs agree
 * (measured on 3,300 gaps in synthetic lines drawn as in test/ocr/fixtures.ts, clean and
 * photographed): the space class rises among the blank steps of the gap (0.008 to 0.5 with a
 * space, at most 0.005 without, once 0.09), and the crop has blank columns there (at least
 * 0.29 text heights with a space; a digit 1's bearings reach 0.35 without one, a letter pair
 * 0.12 where the space class rose). A gap with both gets a space of its own; a space inserted
 * inside an identifier would hide it, so both must hold.
 */

export interface DecodedChar {
  readonly text: string;
  /** Crop columns covered, [from, to). */
  readonly from: number;
  readonly to: number;
  /** The character's highest softmax probability over the steps it won. */
  readonly confidence: number;
}

interface Peak {
  readonly index: number;
  readonly first: number;
  last: number;
  confidence: number;
}

export interface CtcSettings {
  /** Space-class probability in a gap from which a left-out space may be restored (0 disables). */
  readonly spaceEvidence: number;
  /** ...when the gap also has blank columns at least this many text heights wide. */
  readonly spaceGap: number;
  /** Weaker evidence that restores a space only across a wider blank run (below). */
  readonly faintSpaceEvidence: number;
  readonly wideSpaceGap: number;
}

/** Longest ink-free run between two crop columns, in text heights; undefined when unknown. */
export type BlankRun = (from: number, to: number) => number | undefined;

/**
 * Whether a gap with this much space-class evidence and blank run holds a left-out space. Two
 * tiers, measured on small print: the space after "DOB:" had evidence 0.003-0.005 over a run
 * of 0.5 text heights, while the gap between two narrow "1"s had 0.0035 over 0.34.
 */
function spaceRestored(
  settings: CtcSettings,
  evidence: number,
  run: () => number | undefined,
): boolean {
  if (evidence < Math.min(settings.spaceEvidence, settings.faintSpaceEvidence)) return false;
  const blank = run() ?? 0;
  if (evidence >= settings.spaceEvidence && blank >= settings.spaceGap) return true;
  return evidence >= settings.faintSpaceEvidence && blank >= settings.wideSpaceGap;
}

/**
 * What decoding reads of each output step: the winning class (0 is the blank), its softmax
 * probability, and the probability of the space class (the charset's last entry). The
 * recogniser's graph computes these itself (ctc-head.ts).
 */
export interface CtcSteps {
  readonly best: ArrayLike<number>;
  readonly bestProbability: ArrayLike<number>;
  readonly space: ArrayLike<number>;
}

/**
 * Decodes one line from its steps' summary. `textWidth` is the width of the crop that holds
 * text (padding excluded), `cropWidth` the width the network saw.
 */
export function decodeCtc(
  summary: CtcSteps,
  charset: readonly string[],
  textWidth: number,
  cropWidth: number,
  settings: CtcSettings,
  blankRun: BlankRun,
): DecodedChar[] {
  const steps = summary.best.length;
  const stride = cropWidth / steps;
  const centre = (p: Peak): number => ((p.first + p.last) / 2 + 0.5) * stride;
  // The summary's space probability is the last class's: PaddleOCR appends the space there.
  const space = charset.at(-1) === ' ' ? charset.length - 1 : -1;
  const peaks: Peak[] = [];
  let previous = 0;
  // The strongest space evidence among the blank steps since the last character.
  let gapSpace = 0;
  let gapStep = -1;
  let gapConfidence = 0;
  for (let t = 0; t < steps; t += 1) {
    const best = summary.best[t] as number;
    const bestP = summary.bestProbability[t] as number;
    const current = peaks.at(-1);
    if (best !== 0 && best === previous && current !== undefined) {
      current.last = t;
      current.confidence = Math.max(current.confidence, bestP);
    } else if (best !== 0) {
      const restore =
        settings.spaceEvidence > 0 &&
        best !== space &&
        current !== undefined &&
        current.index !== space &&
        spaceRestored(settings, gapSpace, () => blankRun(centre(current), (t + 0.5) * stride));
      if (restore) {
        peaks.push({ index: space, first: gapStep, last: gapStep, confidence: gapConfidence });
      }
      peaks.push({ index: best, first: t, last: t, confidence: bestP });
      gapSpace = 0;
    } else if (space > 0) {
      const p = summary.space[t] as number;
      if (p > gapSpace) {
        gapSpace = p;
        gapStep = t;
        gapConfidence = bestP;
      }
    }
    previous = best;
  }
  if (peaks.length === 0) return [];

  const centres = peaks.map(centre);
  const gaps: number[] = [];
  for (let i = 1; i < centres.length; i += 1) {
    gaps.push((centres[i] as number) - (centres[i - 1] as number));
  }
  gaps.sort((a, b) => a - b);
  // A typical advance: the median distance between peaks; a lone character spans all the text.
  const typical = gaps.length > 0 ? (gaps[gaps.length >> 1] as number) : textWidth;
  return peaks.map((peak, i) => {
    const mid = centres[i] as number;
    const left = i > 0 ? (mid + (centres[i - 1] as number)) / 2 : mid - typical / 2;
    const right = i < peaks.length - 1 ? (mid + (centres[i + 1] as number)) / 2 : mid + typical / 2;
    return {
      text: charset[peak.index] ?? '',
      from: Math.max(0, Math.min(textWidth, left)),
      to: Math.max(0, Math.min(textWidth, right)),
      confidence: peak.confidence,
    };
  });
}
