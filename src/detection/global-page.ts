/**
 * The global types found in a page's text layer, with geometry: the page's lines are read as one
 * text (one line a row, so that a passport's MRZ keeps its rows), the global text finder runs
 * over it, and each finding's span is mapped back to the boxes of its characters. A value over
 * several lines (an MRZ) has characters on each.
 */
import type { FindHints, GlobalRule } from '../identifiers/global-rule.js';
import type { PageText, Quad } from '../ocr/types.js';
import { findGlobalInText } from './global-text.js';
import { mapLines } from './mapped-lines.js';
import type { Finding } from './types.js';

export interface GlobalPageFinding extends Finding {
  /** The value as printed on the page (separators included), for mask mode and stand-ins. */
  readonly printed: string;
  /** Which reading found it: its quads are in PDF points (`pdf`) or the raster's pixels. */
  readonly source: PageText['source'];
}

export interface GlobalPageRejection {
  readonly type: string;
  readonly page: number;
  readonly reason: string;
  /** The candidate as printed: only for its preview (mostly asterisks), never logged. */
  readonly printed: string;
}

export function findGlobalOnPage(
  page: PageText,
  rules: readonly GlobalRule[],
  hints: FindHints,
): { findings: GlobalPageFinding[]; rejected: GlobalPageRejection[] } {
  const mapped = mapLines(
    page.lines,
    page.lines.map((_, i) => i),
    '\n',
  );
  const found = findGlobalInText(mapped.text, rules, hints);
  const findings: GlobalPageFinding[] = [];
  for (const f of found.findings) {
    const charQuads: Quad[] = [];
    for (let i = f.start; i < f.end; i += 1) {
      const box = mapped.boxes[i];
      if (box && charQuads.at(-1) !== box) charQuads.push(box);
    }
    if (charQuads.length === 0) continue;
    const line = page.lines[mapped.lineAt[f.start] ?? 0];
    findings.push({
      type: f.type,
      page: page.page,
      value: f.value,
      printed: mapped.text.slice(f.start, f.end),
      source: page.source,
      charQuads,
      orientation: line?.orientation ?? 0,
      confidence: f.confidence * (line?.confidence ?? 1),
      rule: f.rule,
    });
  }
  const rejected = found.rejected.map((r) => ({
    type: r.type,
    page: page.page,
    reason: r.reason,
    printed: mapped.text.slice(r.start, r.end),
  }));
  return { findings, rejected };
}
