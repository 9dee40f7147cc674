/**
 * The find step for the Indian redaction types over plain text (a line, a page's text, a
 * document's text layer joined line by line): candidates by each rule's pattern, validated,
 * then weighed by the labels before them. A label raises or lowers confidence; it never makes an
 * invalid value valid. Overlapping findings keep the longest (a GSTIN over the PAN inside it).
 * Findings and rejections carry spans, never values, into reports.
 */
import {
  INDIAN_RULES,
  NOT_PERSONAL_LABELS,
  type IndianRule,
  type IndianType,
} from '../identifiers/in/redact-pii-rules.js';
import { tail, textBefore } from './context.js';
import type { TextFinding, TextRejection } from './types.js';

/** Below this confidence (after labels), a valid-shaped value is left alone. */
export const MIN_CONFIDENCE = 0.4;
const LABEL_BONUS = 0.1;
const NOT_PERSONAL_PENALTY = 0.4;
/**
 * A value right after another type's label, and none of its own, is most likely that other
 * type: "Bank account 07064648236" is an account number, though 0 7064648236 is a mobile's
 * shape. Only the words right before the value count.
 */
const OTHER_TYPE_PENALTY = 0.6;
const OTHER_LABEL_REACH = 16;
/** How far before a value a label may stand: its own line and the line above. */
const LABEL_REACH = 48;
const before = (text: string, start: number) => textBefore(text, start, LABEL_REACH);

function lineOf(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to === -1 ? text.length : to);
}

const IFSC_NEARBY = /(?<![A-Za-z0-9])[A-Z]{4}0[A-Z0-9]{6}(?![A-Za-z0-9])/;

function weigh(rule: IndianRule, text: string, start: number, end: number, base: number): number {
  const context = before(text, start);
  const labelled = rule.labels.test(context) || (rule.phrases?.test(context) ?? false);
  if (rule.needsLabel && !labelled && !IFSC_NEARBY.test(lineOf(text, start, end))) return 0;
  let confidence = base + (labelled ? LABEL_BONUS : 0);
  // Only the words right before the value speak against it ("Order No. A1234567").
  if (!labelled && NOT_PERSONAL_LABELS.test(tail(context, 24))) confidence -= NOT_PERSONAL_PENALTY;
  const right = tail(context, OTHER_LABEL_REACH);
  const otherLabel = INDIAN_RULES.some((r) => r.type !== rule.type && r.labels.test(right));
  if (!labelled && !rule.unmistakable && otherLabel) {
    confidence -= OTHER_TYPE_PENALTY;
  }
  return Math.max(0, Math.min(1, confidence));
}

function candidates(
  rule: IndianRule,
  text: string,
): { findings: TextFinding<IndianType>[]; rejected: TextRejection<IndianType>[] } {
  const findings: TextFinding<IndianType>[] = [];
  const rejected: TextRejection<IndianType>[] = [];
  for (const match of text.matchAll(rule.pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    const value = rule.compact(match[0]);
    const validation = rule.validate(value);
    if (!validation.valid) {
      rejected.push({ type: rule.type, start, end, reason: validation.reason });
      continue;
    }
    const confidence = weigh(rule, text, start, end, validation.confidence);
    if (confidence < MIN_CONFIDENCE) {
      rejected.push({ type: rule.type, start, end, reason: 'context' });
      continue;
    }
    findings.push({ type: rule.type, start, end, value, rule: validation.rule, confidence });
  }
  if (rule.withLabel) labelledReadings(rule, rule.withLabel, text, findings, rejected);
  return { findings, rejected };
}

/**
 * The rule's wider reading (a landline after "Phone:"), where one of its labels stands before
 * the value and the narrow reading found nothing there. It replaces the narrow reading's
 * rejection of the same characters.
 */
function labelledReadings(
  rule: IndianRule,
  wider: NonNullable<IndianRule['withLabel']>,
  text: string,
  findings: TextFinding<IndianType>[],
  rejected: TextRejection<IndianType>[],
): void {
  const span = (s: { start: number; end: number }) => (o: { start: number; end: number }) =>
    s.start < o.end && o.start < s.end;
  for (const match of text.matchAll(wider.pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    if (findings.some(span({ start, end })) || !rule.labels.test(before(text, start))) continue;
    const value = rule.compact(match[0]);
    const validation = wider.validate(value);
    if (!validation.valid) continue;
    const confidence = weigh(rule, text, start, end, validation.confidence);
    if (confidence < MIN_CONFIDENCE) continue;
    for (let i = rejected.length - 1; i >= 0; i -= 1) {
      if (span({ start, end })(rejected[i] as TextRejection<IndianType>)) rejected.splice(i, 1);
    }
    findings.push({ type: rule.type, start, end, value, rule: validation.rule, confidence });
  }
}

const overlaps = (a: TextFinding<IndianType>, b: TextFinding<IndianType>) =>
  a.start < b.end && b.start < a.end;

/** Every finding of `types` in `text`, no two overlapping, in text order. */
export function findIndianInText(
  text: string,
  types: readonly IndianType[],
): { findings: TextFinding<IndianType>[]; rejected: TextRejection<IndianType>[] } {
  const all: TextFinding<IndianType>[] = [];
  const rejected: TextRejection<IndianType>[] = [];
  for (const rule of INDIAN_RULES) {
    if (!types.includes(rule.type)) continue;
    const found = candidates(rule, text);
    all.push(...found.findings);
    rejected.push(...found.rejected);
  }
  // Longest first, then the surer, then catalogue order (stable sort).
  const ranked = [...all].sort(
    (a, b) => b.end - b.start - (a.end - a.start) || b.confidence - a.confidence,
  );
  const kept: TextFinding<IndianType>[] = [];
  for (const finding of ranked) {
    if (!kept.some((k) => overlaps(k, finding))) kept.push(finding);
  }
  return { findings: kept.sort((a, b) => a.start - b.start), rejected };
}
