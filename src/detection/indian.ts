/**
 * The Indian redaction types found in a page's text layer, with geometry: the text finder
 * (indian-text.ts) runs over the page's lines, and each finding's span is mapped back to the
 * boxes of its characters. A value broken over two lines ("4918 7362" at the end of one line,
 * "5102" at the start of the next) is found too, by reading each pair of consecutive lines of
 * the same orientation joined with a space and without one, and keeping the findings that cross
 * the join. Consecutive means consecutive in the layer's order, which is reading order for PDF
 * text layers and top-to-bottom for OCR.
 */
import type { IndianType } from '../identifiers/india-rules.js';
import type { PageText, Quad, TextLine } from '../ocr/types.js';
import { findIndianInText, type TextFinding } from './indian-text.js';
import type { Finding, RejectedCandidate } from './types.js';

/** A text and, for every UTF-16 position in it, the box of the character there (or none). */
interface Mapped {
  readonly text: string;
  readonly boxes: readonly (Quad | null)[];
  /** The line each position came from (-1 for a joiner). */
  readonly lineAt: readonly number[];
}

function mapLines(lines: readonly TextLine[], indexes: readonly number[], joiner: string): Mapped {
  let text = '';
  const boxes: (Quad | null)[] = [];
  const lineAt: number[] = [];
  indexes.forEach((index, k) => {
    if (k > 0) {
      text += joiner;
      for (let j = 0; j < joiner.length; j += 1) {
        boxes.push(null);
        lineAt.push(-1);
      }
    }
    for (const char of lines[index]?.chars ?? []) {
      text += char.text;
      for (let j = 0; j < char.text.length; j += 1) {
        boxes.push(char.text.trim() === '' ? null : char.quad);
        lineAt.push(index);
      }
    }
  });
  return { text, boxes, lineAt };
}

function toFinding(page: PageText, mapped: Mapped, found: TextFinding): Finding {
  const charQuads: Quad[] = [];
  for (let i = found.start; i < found.end; i += 1) {
    const box = mapped.boxes[i];
    // A glyph of several characters (a ligature) shares one box: keep it once.
    if (box && charQuads.at(-1) !== box) charQuads.push(box);
  }
  const line = page.lines[mapped.lineAt[found.start] ?? 0];
  return {
    type: found.type,
    page: page.page,
    value: found.value,
    charQuads,
    orientation: line?.orientation ?? 0,
    confidence: found.confidence * (line?.confidence ?? 1),
    rule: found.rule,
  };
}

export interface IndianFindResult {
  readonly findings: readonly Finding[];
  readonly rejected: readonly RejectedCandidate[];
}

export function findIndianOnPage(page: PageText, types: readonly IndianType[]): IndianFindResult {
  const { lines } = page;
  const findings: Finding[] = [];
  const rejected: RejectedCandidate[] = [];
  // Each line on its own.
  const whole = mapLines(
    lines,
    lines.map((_, i) => i),
    '\n',
  );
  const found = findIndianInText(whole.text, types);
  findings.push(...found.findings.map((f) => toFinding(page, whole, f)));
  rejected.push(
    ...found.rejected.map((r) => ({ type: r.type, page: page.page, reason: r.reason })),
  );
  // Values broken over two lines: only findings that cross the join are new.
  for (let i = 0; i + 1 < lines.length; i += 1) {
    if (lines[i]?.orientation !== lines[i + 1]?.orientation) continue;
    for (const joiner of [' ', '']) {
      const pair = mapLines(lines, [i, i + 1], joiner);
      const join = (lines[i]?.text.length ?? 0) + joiner.length;
      for (const f of findIndianInText(pair.text, types).findings) {
        if (f.start >= join - joiner.length || f.end <= join) continue; // does not cross
        const finding = toFinding(page, pair, f);
        // New unless every one of its characters is already part of a finding.
        const covered = new Set(findings.flatMap((g) => g.charQuads));
        if (!finding.charQuads.every((q) => covered.has(q))) findings.push(finding);
      }
    }
  }
  return { findings, rejected };
}
