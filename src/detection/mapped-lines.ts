/**
 * The one page mapper: a page's lines as one text for the text finder, with the box of every
 * character, so that a span the finder returns maps back to geometry (indian.ts,
 * global-page.ts).
 */
import type { Quad } from '../domain/geometry.js';
import type { PageText, TextLine } from '../domain/text-layer.js';
import type { Span } from '../identifiers/rule.js';
import type { Finding, TextFinding } from './types.js';

/** A text and, for every UTF-16 position in it, the box of the character there (or none). */
export interface Mapped {
  readonly text: string;
  readonly boxes: readonly (Quad | null)[];
  /** The line each position came from (-1 for a joiner). */
  readonly lineAt: readonly number[];
}

export function mapLines(
  lines: readonly TextLine[],
  indexes: readonly number[],
  joiner: string,
): Mapped {
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

/** The boxes of a span's characters: a glyph of several characters (a ligature) counts once. */
export function quadsOf(mapped: Mapped, span: Span): Quad[] {
  const quads: Quad[] = [];
  for (let i = span.start; i < span.end; i += 1) {
    const box = mapped.boxes[i];
    if (box && quads.at(-1) !== box) quads.push(box);
  }
  return quads;
}

/**
 * A finding of the text finder placed on its page: its characters' boxes, and the orientation
 * and recognition confidence of the line it starts on (`lines` are those `mapped` was made of),
 * and its characters as read.
 */
export function placeFinding(
  page: PageText,
  lines: readonly TextLine[],
  mapped: Mapped,
  found: TextFinding,
): Finding {
  const line = lines[mapped.lineAt[found.start] ?? 0];
  return {
    type: found.type,
    page: page.page,
    value: found.value,
    charQuads: quadsOf(mapped, found),
    orientation: line?.orientation ?? 0,
    confidence: found.confidence * (line?.confidence ?? 1),
    rule: found.rule,
    source: page.source,
    printed: mapped.text.slice(found.start, found.end),
  };
}
