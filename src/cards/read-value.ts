/**
 * What the card readers return for a field: the value and how sure the recogniser was of the
 * characters it was read from, so that a caller can tell a clean reading from a doubtful one.
 */
import { spanConfidence, type PlacedLine } from './placed-lines.js';

/** A value and the mean confidence of the characters it was read from. */
export interface Read<T> {
  readonly value: T;
  readonly confidence: number;
}

/** `value`, read from the characters `from` to `to` (an index range) of `line`. */
export function readSpan<T>(line: PlacedLine, value: T, from: number, to: number): Read<T> {
  return { value, confidence: spanConfidence(line, from, to) };
}
