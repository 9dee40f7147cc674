/**
 * A page's lines as one text for the text finders, with the box of every character, so that
 * a span the finder returns maps back to geometry (indian.ts, global-page.ts).
 */
import type { Quad } from '../domain/geometry.js';
import type { TextLine } from '../domain/text-layer.js';

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
