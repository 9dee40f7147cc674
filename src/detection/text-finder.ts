/**
 * The find step over plain text, for every identifier type: a line, a page's text, a document's
 * text layer, text sent to /global/redact/text. Candidates come from each rule's pattern or
 * finder, are validated, then weighed by the words before them. A label raises confidence and
 * never makes an invalid value valid; a type that needs a label is refused without one.
 * Overlapping findings keep the longest, then the surer (a GSTIN over the PAN inside it, an IBAN
 * over the card-shaped digits inside it). Findings and rejections carry spans; only the apply
 * step reads their values, and reports never do.
 *
 * The two catalogue views weigh context differently, and say so in their policies below rather
 * than in two finders: /redact-pii's types are mostly shapes without a check digit (a passport
 * or voter ID is a letter and digits), so words that speak against a value count there; the
 * global types mostly carry a check, and a label that claims a value its check refused keeps
 * other types off it.
 */
import {
  INDIAN_RULES,
  NOT_PERSONAL_LABELS,
  type IndianType,
} from '../identifiers/in/redact-pii-rules.js';
import type { GlobalRule } from '../identifiers/global-rule.js';
import type { FindHints, Span, TextRule } from '../identifiers/rule.js';
import { tail, textBefore } from './context.js';
import type { TextFinding, TextRejection } from './types.js';

export interface FindPolicy {
  /** Below this confidence (after labels), a valid value is refused for its context. */
  readonly minConfidence: number;
  /**
   * Words that speak against a value without a label of its own: not-personal labels ("Order
   * No.") and, right before it, another type's labels (checked against `others`).
   */
  readonly doubt?: { readonly notPersonal: RegExp; readonly others: readonly TextRule[] };
  /** A value named by its type's label and refused by its check is left to no other type. */
  readonly claims: boolean;
  /** A refused reading of part of a found value (digits inside an IBAN) is not reported. */
  readonly quietInsideFindings: boolean;
}

export interface TextFindResult<T extends string = string> {
  readonly findings: readonly TextFinding<T>[];
  readonly rejected: readonly TextRejection<T>[];
}

/**
 * How far before a value its label may stand, within its own line and the end of the line
 * above: "Permanent Account Number Card" over a PAN, "Date of birth / Geburtsdatum:" before a
 * date. One reach for every type (the two views once had 48 and 40 characters).
 */
const LABEL_REACH = 48;

/** What joins the values of a list under one label: a comma, a slash, "and", "or". */
const LIST_JOINER = /^\s*(?:[,;/&]|\band\b|\bor\b|,\s*(?:and|or)\b)?\s*$/i;

/** How much the words before a value weigh, and how far back each kind is looked for. */
const WEIGHT = {
  labelBonus: 0.1,
  notPersonalPenalty: 0.4,
  /** Only the words right before the value speak against it ("Order No. A1234567"). */
  notPersonalReach: 24,
  /**
   * A value right after another type's label, and none of its own, is most likely that other
   * type: "Bank account 07064648236" is an account number, though 0 7064648236 is a mobile's
   * shape.
   */
  otherTypePenalty: 0.6,
  otherLabelReach: 16,
  /** A label this close before a value that fails its check claims it for its own type. */
  claimReach: 24,
} as const;

/** The /redact-pii view (its threshold is measured on its own corpus). */
export const INDIAN_POLICY: FindPolicy = {
  minConfidence: 0.4,
  doubt: { notPersonal: NOT_PERSONAL_LABELS, others: INDIAN_RULES },
  claims: false,
  quietInsideFindings: false,
};

/** The global view (/global/*): checks decide, labels only add. */
export const GLOBAL_POLICY: FindPolicy = {
  minConfidence: 0,
  claims: true,
  quietInsideFindings: true,
};

function spansOf(rule: TextRule, text: string, hints: FindHints): Iterable<Span> {
  if (rule.find) return rule.find(text, hints);
  if (!rule.pattern) return [];
  return Array.from(text.matchAll(rule.pattern), (m) => ({
    start: m.index,
    end: m.index + m[0].length,
  }));
}

function lineOf(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to === -1 ? text.length : to);
}

/** The value's confidence after the words before it, or null when they refuse it. */
function weigh(
  rule: TextRule,
  text: string,
  span: Span,
  base: number,
  policy: FindPolicy,
): number | null {
  const context = textBefore(text, span.start, LABEL_REACH);
  const labelled = (rule.labels?.test(context) ?? false) || (rule.phrases?.test(context) ?? false);
  if (rule.needsLabel && !labelled) {
    if (!rule.companion?.test(lineOf(text, span.start, span.end))) return null;
  }
  let confidence = base + (labelled ? WEIGHT.labelBonus : 0);
  const doubt = policy.doubt;
  if (doubt && !labelled) {
    if (doubt.notPersonal.test(tail(context, WEIGHT.notPersonalReach))) {
      confidence -= WEIGHT.notPersonalPenalty;
    }
    const right = tail(context, WEIGHT.otherLabelReach);
    const otherLabel = doubt.others.some((r) => r.type !== rule.type && r.labels?.test(right));
    if (!rule.unmistakable && otherLabel) confidence -= WEIGHT.otherTypePenalty;
  }
  confidence = Math.max(0, Math.min(1, confidence));
  return confidence < policy.minConfidence ? null : confidence;
}

interface Candidates {
  readonly findings: TextFinding[];
  readonly rejected: TextRejection[];
  readonly claims: Span[];
}

function candidates(
  rule: TextRule,
  text: string,
  hints: FindHints,
  policy: FindPolicy,
  out: Candidates,
): void {
  const findings: TextFinding[] = [];
  const rejected: TextRejection[] = [];
  /** The last value of this rule that its label named, directly or as the head of a list. */
  let named: Span | null = null;
  for (const span of spansOf(rule, text, hints)) {
    const { start, end } = span;
    const value = rule.compact(text.slice(start, end));
    const validation = rule.validate(value);
    // "Routing numbers 021000021 and 0XXXXXXXX": a label names every value of the list it heads.
    const isNamed: boolean =
      (rule.labels?.test(textBefore(text, start, WEIGHT.claimReach)) ?? false) ||
      (named !== null && LIST_JOINER.test(text.slice(named.end, start)));
    named = isNamed ? span : null;
    if (!validation.valid) {
      rejected.push({ type: rule.type, start, end, reason: validation.reason });
      // Named by its own label right before it, the value is this type, misprinted or made up:
      // "routing number 123456789" that fails the 3-7-1 check is no SSN.
      if (policy.claims && isNamed) out.claims.push(span);
      continue;
    }
    const confidence = weigh(rule, text, span, validation.confidence, policy);
    if (confidence === null) {
      rejected.push({ type: rule.type, start, end, reason: 'context' });
      continue;
    }
    findings.push({ type: rule.type, start, end, value, rule: validation.rule, confidence });
  }
  if (rule.withLabel) labelledReadings(rule, rule.withLabel, text, policy, findings, rejected);
  out.findings.push(...findings);
  out.rejected.push(...rejected);
}

const overlap = (s: Span) => (o: Span) => s.start < o.end && o.start < s.end;

/**
 * The rule's wider reading (a landline after "Phone:"), where one of its labels stands before
 * the value and the narrow reading found nothing there. It replaces the narrow reading's
 * rejection of the same characters.
 */
function labelledReadings(
  rule: TextRule,
  wider: NonNullable<TextRule['withLabel']>,
  text: string,
  policy: FindPolicy,
  findings: TextFinding[],
  rejected: TextRejection[],
): void {
  for (const match of text.matchAll(wider.pattern)) {
    const span = { start: match.index, end: match.index + match[0].length };
    if (findings.some(overlap(span))) continue;
    if (!rule.labels?.test(textBefore(text, span.start, LABEL_REACH))) continue;
    const value = rule.compact(match[0]);
    const validation = wider.validate(value);
    if (!validation.valid) continue;
    const confidence = weigh(rule, text, span, validation.confidence, policy);
    if (confidence === null) continue;
    for (let i = rejected.length - 1; i >= 0; i -= 1) {
      if (overlap(span)(rejected[i] as TextRejection)) rejected.splice(i, 1);
    }
    findings.push({ type: rule.type, ...span, value, rule: validation.rule, confidence });
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

  /** Adds `span` unless it overlaps one kept. */
  add(span: T): void {
    const at = this.firstEndingAfter(span.start);
    const next = this.items[at];
    if (next === undefined || next.start >= span.end) this.items.splice(at, 0, span);
  }
}

/** Every finding of `rules` in `text` under `policy`, no two overlapping, in text order. */
export function findInText<R extends TextRule>(
  text: string,
  rules: readonly R[],
  policy: FindPolicy,
  hints: FindHints = { countries: [] },
): TextFindResult<R['type']> {
  const all: Candidates = { findings: [], rejected: [], claims: [] };
  for (const rule of rules) candidates(rule, text, hints, policy, all);
  // A value claimed by a label whose type refused it is left to no other type, unless that
  // type's own label stands before it too.
  const unclaimed = all.findings.filter((f) => {
    if (!all.claims.some(overlap(f))) return true;
    const rule = rules.find((r) => r.type === f.type);
    return rule?.labels?.test(textBefore(text, f.start, WEIGHT.claimReach)) ?? false;
  });
  // Longest first, then the surer; the catalogue's order breaks ties (the sort is stable).
  const ranked = [...unclaimed].sort(
    (a, b) => b.end - b.start - (a.end - a.start) || b.confidence - a.confidence,
  );
  const kept = new DisjointSpans<TextFinding>();
  for (const finding of ranked) kept.add(finding);
  const rejected = policy.quietInsideFindings
    ? all.rejected.filter((r) => !kept.overlaps(r))
    : all.rejected;
  return { findings: kept.items, rejected };
}

/** /redact-pii's view: the Indian types named, in catalogue order. */
export function findIndianInText(
  text: string,
  types: readonly IndianType[],
): TextFindResult<IndianType> {
  const rules = INDIAN_RULES.filter((r) => types.includes(r.type));
  return findInText(text, rules, INDIAN_POLICY);
}

/** The global view: the rules chosen for the request. */
export function findGlobalInText(
  text: string,
  rules: readonly GlobalRule[],
  hints: FindHints = { countries: [] },
): TextFindResult {
  return findInText(text, rules, GLOBAL_POLICY, hints);
}
