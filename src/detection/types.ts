/** What the find step reports: typed findings with geometry, and the candidates it rejected. */
import type { Orientation, Quad } from '../domain/geometry.js';
import type { PageText } from '../domain/text-layer.js';

export interface Finding {
  readonly type: string;
  /** 0-based page index. */
  readonly page: number;
  /** The canonical value (digits only for numbers). Never logged, never put in a header. */
  readonly value: string;
  /** One quad per character of `value`, in the page's coordinate space. */
  readonly charQuads: readonly Quad[];
  readonly orientation: Orientation;
  /** Mean recognition confidence of the characters, 0..1. */
  readonly confidence: number;
  /** The rule that accepted it, for example `verhoeff` or `verhoeff_after_ocr_repair`. */
  readonly rule: string;
  /** Which reading found it: its quads are in PDF points (`pdf`) or the raster's pixels (`ocr`). */
  readonly source: PageText['source'];
  /**
   * The value as read (separators included), for mask mode and stand-ins of the same format.
   * Never logged, never put in a header.
   */
  readonly printed: string;
}

/**
 * A value found in plain text (a page's text as read, or text sent to /global/redact-text):
 * its span as printed, separators included ([start, end) in UTF-16 units), the compact value
 * and the check that passed. `T` narrows the type names (the /redact-pii view).
 */
export interface TextFinding<T extends string = string> {
  readonly type: T;
  readonly start: number;
  readonly end: number;
  /** Compacted value: for the apply step (tokens, pseudonyms), never for logs or reports. */
  readonly value: string;
  /** The check that passed, in words. */
  readonly rule: string;
  readonly confidence: number;
}

/** A candidate in plain text that was refused, and why (the validator's reason or `context`). */
export interface TextRejection<T extends string = string> {
  readonly type: T;
  readonly start: number;
  readonly end: number;
  readonly reason: string;
}

export interface RejectedCandidate {
  readonly type: string;
  readonly page: number;
  /** Why it was rejected, for example `checksum`, `first_digit`, `context_phone`. */
  readonly reason: string;
  /**
   * What a report may show of it (identifiers/preview.ts: mostly asterisks), where the
   * endpoint reports rejections (/global/detect); never the candidate itself.
   */
  readonly preview?: string;
}

export interface FindResult {
  readonly findings: readonly Finding[];
  readonly rejected: readonly RejectedCandidate[];
}
