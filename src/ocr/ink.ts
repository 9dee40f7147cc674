/**
 * Where the ink is in a line crop: which columns hold any, and how tall the text is. Used to
 * confirm a space the recogniser hinted at (or to find one it left out) by the blank columns
 * between two characters. Hand-written: an Otsu threshold and two profiles over a small crop.
 */

export interface InkProfile {
  /** Per crop column: 1 when any row of the text band holds ink. */
  readonly inked: Uint8Array;
  /** Height of the rows holding ink, in crop rows (the text's height; 0 when none was found). */
  readonly textHeight: number;
}

/** Profiles a channels-first crop whose values lie in [-1, 1] (see crop.ts). */
export function inkProfile(
  data: Float32Array,
  width: number,
  height: number,
  textWidth: number,
): InkProfile {
  const plane = width * height;
  const grey = new Float32Array(height * textWidth);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < textWidth; x += 1) {
      const i = y * width + x;
      grey[y * textWidth + x] =
        ((data[i] as number) + (data[plane + i] as number) + (data[2 * plane + i] as number)) / 3;
    }
  }
  const inked = new Uint8Array(textWidth);
  const split = otsuThreshold(grey);
  if (split === undefined) return { inked, textHeight: 0 };
  // Mark the darker class and count it in one pass, branch-free (a per-pixel test with a
  // branch cost 50 ms a page); ink is the smaller class, as text covers less of a line.
  const ink = new Uint8Array(grey.length);
  let below = 0;
  for (let i = 0; i < grey.length; i += 1) {
    const dark = (grey[i] as number) < split ? 1 : 0;
    ink[i] = dark;
    below += dark;
  }
  if (below > grey.length - below)
    for (let i = 0; i < ink.length; i += 1) ink[i] = 1 - (ink[i] as number);
  let top = height;
  let bottom = -1;
  const speck = Math.max(2, textWidth * 0.01);
  for (let y = 0; y < height; y += 1) {
    let count = 0;
    const row = y * textWidth;
    for (let x = 0; x < textWidth; x += 1) count += ink[row + x] as number;
    // A row counts as text when more than a speck of it is ink.
    if (count >= speck) {
      top = Math.min(top, y);
      bottom = y;
    }
  }
  if (bottom < top) return { inked, textHeight: 0 };
  for (let y = top; y <= bottom; y += 1) {
    const row = y * textWidth;
    for (let x = 0; x < textWidth; x += 1)
      inked[x] = (inked[x] as number) | (ink[row + x] as number);
  }
  return { inked, textHeight: bottom - top + 1 };
}

/** The longest run of ink-free columns in [from, to). */
export function longestBlank(profile: InkProfile, from: number, to: number): number {
  let best = 0;
  let run = 0;
  const end = Math.min(to, profile.inked.length);
  for (let x = Math.max(0, Math.floor(from)); x < end; x += 1) {
    run = profile.inked[x] === 1 ? 0 : run + 1;
    if (run > best) best = run;
  }
  return best;
}

/** Otsu's threshold over values in [-1, 1]; undefined when the two classes barely differ. */
export function otsuThreshold(values: Float32Array): number | undefined {
  const bins = 64;
  const histogram = new Float64Array(bins);
  for (let i = 0; i < values.length; i += 1) {
    // ((v + 1) / 2) * bins, truncated and clamped: the same bin as flooring, without calls.
    const bin = (((values[i] as number) + 1) * (bins / 2)) | 0;
    const clamped = bin < 0 ? 0 : bin > bins - 1 ? bins - 1 : bin;
    histogram[clamped] = (histogram[clamped] as number) + 1;
  }
  const total = values.length;
  let sumAll = 0;
  for (let i = 0; i < bins; i += 1) sumAll += i * (histogram[i] as number);
  let weightLow = 0;
  let sumLow = 0;
  let best = -1;
  let bestVariance = 0;
  let bestGap = 0;
  for (let i = 0; i < bins - 1; i += 1) {
    weightLow += histogram[i] as number;
    sumLow += i * (histogram[i] as number);
    const weightHigh = total - weightLow;
    if (weightLow === 0 || weightHigh === 0) continue;
    const meanLow = sumLow / weightLow;
    const meanHigh = (sumAll - sumLow) / weightHigh;
    const variance = weightLow * weightHigh * (meanLow - meanHigh) ** 2;
    if (variance > bestVariance) {
      bestVariance = variance;
      best = i;
      bestGap = meanHigh - meanLow;
    }
  }
  // Class means less than about 12 grey levels apart: nothing that looks like print.
  if (best < 0 || bestGap < (12 / 255) * bins) return undefined;
  return ((best + 1) / bins) * 2 - 1;
}
