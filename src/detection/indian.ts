/**
 * The Indian redaction types found in a page's text layer, with geometry: the text finder
 * (text-finder.ts, /redact-pii's view) runs over the page's lines, and each finding's span is mapped back to the
 * boxes of its characters. A value broken over two lines ("4918 7362" at the end of one line,
 * "5102" at the start of the next) is found too, by reading each line after the line right
 * above it (lineAbove), joined with a space and without one, and keeping the findings that
 * cross the join.
 *
 * "Above" is geometric: the nearest line over this one, in its reading frame, overlapping it
 * across. The line before it in reading order will not do: in a form of two columns that is the
 * other column's label, which once lowered a voter ID below the threshold ("Order No." beside
 * "EPIC No.") and, joined to an e-mail address, made its cover spill onto the label.
 * A label printed above its value (forms, cards, table headers) is looked for there too.
 */
import { INDIAN_RULES, indianRule, type IndianType } from '../identifiers/in/redact-pii-rules.js';
import { findAadhaarOnPage } from './aadhaar.js';
import { UNVERIFIED_RULE } from './aadhaar-context.js';
import type { PageText, TextLine } from '../domain/text-layer.js';
import { findIndianInText } from './text-finder.js';
import { columnHeader, lineAbove, lineLeft } from './line-above.js';
import { mapLines, placeFinding } from './mapped-lines.js';
import { repairLine } from './ocr-repair.js';
import type { FindResult, Finding, RejectedCandidate } from './types.js';

/**
 * Whether a value can run over a space from the end of one line into the next: a number broken
 * at a space between its groups ("4918 7362" / "5102", "(+91)" / "93245-61322"); no other
 * value holds spaces.
 */
function breaksAtSpace(first: string, next: string): boolean {
  return /[0-9]\)?$/.test(first.trimEnd()) && /^\(?[0-9]/.test(next.trimStart());
}

/** Findings whose characters all belong to another, longer finding are dropped (longest wins). */
function longestOnly(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => {
    const mine = new Set(f.charQuads);
    return !findings.some(
      (g) =>
        g !== f &&
        g.charQuads.length > f.charQuads.length &&
        [...mine].every((q) => g.charQuads.includes(q)),
    );
  });
}

/**
 * Fails closed as masking does (aadhaar-context.ts): the Aadhaar finder's `unverified` numbers
 * (4-4-4, check digit failed, on a card or after an Aadhaar label) are covered too, unless a
 * finding already holds one of their characters.
 */
function unverifiedAadhaar(page: PageText, findings: readonly Finding[]): Finding[] {
  const taken = new Set(findings.flatMap((f) => f.charQuads));
  return findAadhaarOnPage(page).findings.filter(
    (f) => f.rule === UNVERIFIED_RULE && !f.charQuads.some((q) => taken.has(q)),
  );
}

/** A table cell of a number column: digits and their separators only (a phone's +, brackets). */
const isNumberCell = (text: string) => /^[\s0-9./()+-]+$/.test(text) && /[0-9]/.test(text);

/**
 * Types found only with a label (bank accounts), or read wider with one (a landline under a
 * "Mobile" column), in tables: the label is the column's header (above the first row, not above
 * this one) or the row's label cell to the left. Each line is read after those, and findings
 * that no other type holds are added.
 */
function labelledCells(
  page: PageText,
  lines: readonly TextLine[],
  types: readonly IndianType[],
  found: readonly Finding[],
): Finding[] {
  const labelOnly = types.filter((t) => indianRule(t).needsLabel || indianRule(t).withLabel);
  if (labelOnly.length === 0) return [];
  const taken = new Set(found.flatMap((f) => f.charQuads));
  const added: Finding[] = [];
  lines.forEach((line, i) => {
    // Each label place on its own: the cell to the left of a row of values is another value,
    // which would push the column's header out of the label's reach.
    for (const label of [columnHeader(lines, i, isNumberCell), lineLeft(lines, i)]) {
      if (label === undefined) continue;
      const mapped = mapLines(lines, [label, i], '\n');
      const offset = mapped.text.length - line.text.length;
      for (const f of findIndianInText(mapped.text, labelOnly).findings) {
        if (f.start < offset) continue;
        const finding = placeFinding(page, lines, mapped, f);
        if (finding.charQuads.some((q) => taken.has(q))) continue;
        finding.charQuads.forEach((q) => taken.add(q));
        added.push(finding);
      }
    }
  });
  return added;
}

export function findIndianOnPage(page: PageText, types: readonly IndianType[]): FindResult {
  // OCR's look-alike letters and digits are put back first (ocr-repair.ts); a PDF's text is exact.
  const rules = INDIAN_RULES.filter((r) => types.includes(r.type));
  const lines = page.source === 'ocr' ? page.lines.map((l) => repairLine(l, rules)) : page.lines;
  const findings: Finding[] = [];
  const rejected: RejectedCandidate[] = [];
  // Each line on its own, after the line above it (where a label may stand).
  lines.forEach((line, i) => {
    const above = lineAbove(lines, i);
    const mapped = mapLines(lines, above === undefined ? [i] : [above, i], '\n');
    const offset = mapped.text.length - line.text.length;
    const found = findIndianInText(mapped.text, types);
    for (const f of found.findings) {
      if (f.start >= offset) findings.push(placeFinding(page, lines, mapped, f));
    }
    for (const r of found.rejected) {
      if (r.start >= offset) rejected.push({ type: r.type, page: page.page, reason: r.reason });
    }
  });
  // Values broken over two lines: a line and the one right above it (not the line before it
  // in reading order, which in two columns is the other column's). Only findings that cross
  // the join are new.
  lines.forEach((_, next) => {
    const first = lineAbove(lines, next);
    if (first === undefined) return;
    for (const joiner of [' ', '']) {
      if (joiner === ' ' && !breaksAtSpace(lines[first]?.text ?? '', lines[next]?.text ?? '')) {
        continue;
      }
      const pair = mapLines(lines, [first, next], joiner);
      const join = (lines[first]?.text.length ?? 0) + joiner.length;
      for (const f of findIndianInText(pair.text, types).findings) {
        if (f.start >= join - joiner.length || f.end <= join) continue; // does not cross
        const finding = placeFinding(page, lines, pair, f);
        const chars = new Set(finding.charQuads);
        // A value complete on its own line, glued without a space to the next line's first word
        // ("...@example.in" + "IFSC:"), is no value broken over two lines. Over a space, the
        // longer reading is the value ("+91" + "98765 43210").
        const extended = findings.some(
          (g) => g.type === finding.type && g.charQuads.every((q) => chars.has(q)),
        );
        if (joiner === '' && extended) continue;
        // New unless every one of its characters is already part of a finding.
        const covered = new Set(findings.flatMap((g) => g.charQuads));
        if (!finding.charQuads.every((q) => covered.has(q))) findings.push(finding);
      }
    }
  });
  const kept = longestOnly(findings);
  kept.push(...labelledCells(page, lines, types, kept));
  if (types.includes('aadhaar')) kept.push(...unverifiedAadhaar(page, kept));
  return { findings: kept, rejected };
}
