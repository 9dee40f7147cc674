/**
 * The global types found in a page's text layer, with geometry: the page's lines are read as one
 * text (one line a row, so that a passport's MRZ keeps its rows), the global text finder runs
 * over it, and each finding's span is mapped back to the boxes of its characters. A value over
 * several lines (an MRZ) has characters on each. An OCR reading gets the repairs of ocr-codes.ts:
 * MRZ rows closed up, and codes read a second time with their look-alike capitals.
 */
import type { GlobalRule } from '../identifiers/global-rule.js';
import type { FindHints } from '../identifiers/rule.js';
import type { PageText } from '../domain/text-layer.js';
import { previewOfPrinted } from '../identifiers/preview.js';
import { misreadMrzZone } from '../identifiers/universal/mrz.js';
import { findGlobalInText, type TextFindResult } from './text-finder.js';
import { mapLines, placeFinding } from './mapped-lines.js';
import { asMrzRows, capitalisedCodes } from './ocr-codes.js';
import type { FindResult, Finding, TextFinding, TextRejection } from './types.js';

const overlapping = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  a.start < b.end && b.start < a.end;

const PASSPORT_MRZ = 'PASSPORT_MRZ';

/**
 * An OCR reading's MRZ zones the checks refused that still read as zones (misreadMrzZone):
 * taken as findings, so that a zone whose composite a misread filler broke is covered. What
 * was found inside such a zone (a name row read as a BIC) is part of it.
 */
function withMisreadZones(
  found: TextFindResult,
  text: string,
  rules: readonly GlobalRule[],
): TextFindResult {
  const rule = rules.find((r) => r.type === PASSPORT_MRZ);
  if (!rule?.pattern) return found;
  const zones: TextFinding[] = [];
  for (const m of text.matchAll(rule.pattern)) {
    const span = { start: m.index, end: m.index + m[0].length };
    if (found.findings.some((f) => f.type === PASSPORT_MRZ && overlapping(f, span))) continue;
    const value = rule.compact(m[0]);
    const verdict = misreadMrzZone(value);
    if (!rule.validate(value).valid && verdict.valid) {
      zones.push({
        type: PASSPORT_MRZ,
        ...span,
        value,
        rule: verdict.rule,
        confidence: verdict.confidence,
      });
    }
  }
  if (zones.length === 0) return found;
  const outside = (x: { start: number; end: number }) => !zones.some((z) => overlapping(z, x));
  return {
    findings: [...found.findings.filter(outside), ...zones].sort((a, b) => a.start - b.start),
    rejected: found.rejected.filter(outside),
  };
}

/**
 * The findings of the text and, on an OCR reading, those its capitalised codes add; `printed`
 * gives each finding's characters as the reading that found it has them.
 */
function findInReading(
  text: string,
  source: PageText['source'],
  rules: readonly GlobalRule[],
  hints: FindHints,
) {
  const printed = (span: { start: number; end: number }) => text.slice(span.start, span.end);
  if (source !== 'ocr') return { ...findGlobalInText(text, rules, hints), printed };
  const reading = { ...hints, ocr: true };
  const strict = findGlobalInText(text, rules, reading);
  const found = withMisreadZones(strict, text, rules);
  const capitalised = capitalisedCodes(text);
  if (capitalised === text) return { ...found, printed };
  const second = findGlobalInText(capitalised, rules, reading);
  const added = new Set(
    second.findings.filter((f) => !found.findings.some((g) => overlapping(f, g))),
  );
  if (added.size === 0) return { ...found, printed };
  return {
    findings: [...found.findings, ...added].sort((a, b) => a.start - b.start),
    rejected: found.rejected.filter((r) => ![...added].some((f) => overlapping(f, r))),
    printed: (span: TextFinding | TextRejection) =>
      (added.has(span as TextFinding) ? capitalised : text).slice(span.start, span.end),
  };
}

export function findGlobalOnPage(
  page: PageText,
  rules: readonly GlobalRule[],
  hints: FindHints,
): FindResult {
  const lines = page.source === 'ocr' ? asMrzRows(page.lines) : page.lines;
  const mapped = mapLines(
    lines,
    lines.map((_, i) => i),
    '\n',
  );
  const found = findInReading(mapped.text, page.source, rules, hints);
  const findings: Finding[] = [];
  for (const f of found.findings) {
    const finding = placeFinding(page, lines, mapped, f);
    if (finding.charQuads.length === 0) continue;
    // As the reading that found it has it (a code read again with its capitals put back).
    findings.push({ ...finding, printed: found.printed(f) });
  }
  const rejected = found.rejected.map((r) => ({
    type: r.type,
    page: page.page,
    reason: r.reason,
    preview: previewOfPrinted(found.printed(r)),
  }));
  return { findings, rejected };
}
