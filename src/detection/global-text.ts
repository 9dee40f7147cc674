/**
 * The find step for the global entity types over plain text: candidates from each rule's
 * pattern or finder, validated, then weighed by the words before them. Overlapping findings
 * keep the longest, then the surer (an IBAN over the card-shaped digits inside it). A label
 * raises confidence and never makes an invalid value valid; a type that needs a label (a date
 * is a birth date only after one) is refused without it. Findings carry spans; only the apply
 * step reads their values, and reports never do.
 */
import type { FindHints, GlobalRule, Span } from '../identifiers/global-rule.js';
import { textBefore } from './context.js';
import type { TextFinding, TextRejection } from './types.js';

export interface GlobalFindResult {
  readonly findings: readonly TextFinding[];
  readonly rejected: readonly TextRejection[];
}

const LABEL_BONUS = 0.1;
/** How far before a value a label may stand: its own line and the end of the line above. */
const LABEL_REACH = 40;
/** A label this close before a value that fails its check claims the value for its own type. */
const CLAIM_REACH = 24;

function spansOf(rule: GlobalRule, text: string, hints: FindHints): Iterable<Span> {
  if (rule.find) return rule.find(text, hints);
  if (!rule.pattern) return [];
  const pattern = rule.pattern;
  return Array.from(text.matchAll(pattern), (m) => ({
    start: m.index,
    end: m.index + m[0].length,
  }));
}

function candidates(
  rule: GlobalRule,
  text: string,
  hints: FindHints,
  out: GlobalFindResult,
  claims: Span[],
) {
  const findings = out.findings as TextFinding[];
  const rejected = out.rejected as TextRejection[];
  for (const { start, end } of spansOf(rule, text, hints)) {
    const value = rule.compact(text.slice(start, end));
    const validation = rule.validate(value);
    if (!validation.valid) {
      rejected.push({ type: rule.type, start, end, reason: validation.reason });
      // Named by its own label right before it, the value is this type, misprinted or made up:
      // "routing number 123456789" that fails the 3-7-1 check is no SSN.
      if (rule.labels?.test(textBefore(text, start, CLAIM_REACH))) claims.push({ start, end });
      continue;
    }
    const labelled = rule.labels?.test(textBefore(text, start, LABEL_REACH)) ?? false;
    if (rule.needsLabel && !labelled) {
      rejected.push({ type: rule.type, start, end, reason: 'context' });
      continue;
    }
    const confidence = Math.min(1, validation.confidence + (labelled ? LABEL_BONUS : 0));
    findings.push({ type: rule.type, start, end, value, rule: validation.rule, confidence });
  }
}

/**
 * Spans that do not overlap, kept sorted by start, with an overlap test in O(log n): a text of
 * megabytes holds thousands of findings, and testing each against all was quadratic.
 */
class DisjointSpans<T extends Span> {
  readonly items: T[] = [];

  /** Index of the first kept span that ends after `start`. */
  private firstEndingAfter(start: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.items[mid] as T).end <= start) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  overlaps(span: Span): boolean {
    const next = this.items[this.firstEndingAfter(span.start)];
    return next !== undefined && next.start < span.end;
  }

  /** Adds `span` unless it overlaps one kept; says whether it did. */
  add(span: T): boolean {
    const at = this.firstEndingAfter(span.start);
    const next = this.items[at];
    if (next !== undefined && next.start < span.end) return false;
    this.items.splice(at, 0, span);
    return true;
  }
}

/** Every finding of `rules` in `text`, no two overlapping, in text order. */
export function findGlobalInText(
  text: string,
  rules: readonly GlobalRule[],
  hints: FindHints = { countries: [] },
): GlobalFindResult {
  const all: GlobalFindResult = { findings: [], rejected: [] };
  const claims: Span[] = [];
  for (const rule of rules) candidates(rule, text, hints, all, claims);
  // A value claimed by a label whose type refused it is left to no other type, unless that
  // type's own label stands before it too.
  const unclaimed = all.findings.filter((f) => {
    const claimed = claims.some((c) => c.start < f.end && f.start < c.end);
    if (!claimed) return true;
    const rule = rules.find((r) => r.type === f.type);
    return rule?.labels?.test(textBefore(text, f.start, CLAIM_REACH)) ?? false;
  });
  // Longest first, then the surer; the catalogue's order breaks ties (the sort is stable).
  const ranked = [...unclaimed].sort(
    (a, b) => b.end - b.start - (a.end - a.start) || b.confidence - a.confidence,
  );
  const kept = new DisjointSpans<TextFinding>();
  for (const finding of ranked) kept.add(finding);
  // A refused reading of part of a found value (card-shaped digits inside an IBAN) is no news.
  const rejected = all.rejected.filter((r) => !kept.overlaps(r));
  return { findings: kept.items, rejected };
}
