/**
 * Redacting global identifiers in plain text (README, POST /global/redact/text): the
 * find step of the global catalogue over the text, then each value replaced in one of four
 * modes: `token` (the default: `[<TYPE>_<n>]`, the same value the same token), `mask`
 * (asterisks, the last `mask_keep` letters or digits kept, separators kept), `pseudonym` (a
 * stand-in of the same format from a reserved range) or `box` (a fixed run of block characters,
 * whatever the value's length, so that not even the length is left): the operators' text forms
 * (redaction/operators/). The report names types, spans and the rule that validated each value,
 * never a value.
 */
import { findGlobalInText } from '../detection/text-finder.js';
import { TEXT_FORMS } from '../redaction/operators/by-mode.js';
import type { TextMode } from '../redaction/operators/types.js';
import { StandIns } from '../redaction/stand-ins.js';
import { replaceFindings } from '../redaction/text-replace.js';
import { TextTooLargeError } from './errors.js';
import type { GlobalRedactChoices } from './global-options.js';

/** The modes the text endpoint offers, its default first. */
export const TEXT_MODES: readonly TextMode[] = ['token', 'mask', 'pseudonym', 'box'];

export interface TextRedactOptions extends GlobalRedactChoices<TextMode> {
  /** Largest text accepted, in UTF-8 bytes. */
  readonly maxBytes: number;
}

/** Offsets count Unicode code points of the text as sent (as Python's `str` indexes do). */
export interface TextEntity {
  readonly type: string;
  readonly start: number;
  readonly end: number;
  readonly confidence: number;
  readonly validated: true;
  readonly validation: string;
}

export interface TextRejection {
  readonly type: string;
  readonly reason: string;
  readonly start: number;
  readonly end: number;
}

export interface TextRedactResult {
  readonly redactedText: string;
  readonly mode: TextMode;
  readonly entities: readonly TextEntity[];
  readonly rejected: readonly TextRejection[];
  /** Values found per type. */
  readonly summary: Readonly<Record<string, number>>;
  /** Types given tokens in pseudonym mode because their reserved space ran out. */
  readonly pseudonymFallbacks: readonly string[];
}

/** A converter from UTF-16 offsets (rising) to code point offsets. */
function codePointOffsets(text: string): (offset: number) => number {
  if (!/[\uD800-\uDFFF]/.test(text)) return (offset) => offset;
  let at = 0;
  let points = 0;
  return (offset) => {
    if (offset < at) throw new Error('offsets must not fall');
    for (; at < offset; at += 1) {
      const code = text.charCodeAt(at);
      // The low half of a pair is not a code point of its own.
      if (code < 0xdc00 || code > 0xdfff) points += 1;
    }
    return points;
  };
}

export function redactText(text: string, options: TextRedactOptions): TextRedactResult {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > options.maxBytes) {
    throw new TextTooLargeError(
      `The text is ${bytes} bytes; at most ${options.maxBytes} are accepted (UTF-8).`,
    );
  }
  const { findings, rejected } = findGlobalInText(text, options.rules, {
    countries: options.countries,
  });
  const standIns = new StandIns();
  const summary: Record<string, number> = {};
  const entities: TextEntity[] = [];
  const toPoints = codePointOffsets(text);
  for (const f of findings) {
    summary[f.type] = (summary[f.type] ?? 0) + 1;
    entities.push({
      type: f.type,
      start: toPoints(f.start),
      end: toPoints(f.end),
      confidence: Math.round(f.confidence * 100) / 100,
      validated: true,
      validation: f.rule,
    });
  }
  const out = replaceFindings(text, findings, TEXT_FORMS[options.mode], options, standIns);
  // Rejections come type by type; sorted, their offsets convert in one pass too.
  const rejectedPoints = codePointOffsets(text);
  const rejections = [...rejected]
    .sort((a, b) => a.start - b.start)
    .map((r) => {
      const start = rejectedPoints(r.start);
      const length = Array.from(text.slice(r.start, r.end)).length;
      return { type: r.type, reason: r.reason, start, end: start + length };
    });
  return {
    redactedText: out,
    mode: options.mode,
    entities,
    rejected: rejections,
    summary,
    pseudonymFallbacks: [...standIns.fellBack],
  };
}
