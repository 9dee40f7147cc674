/** Builds text layers by hand, for testing the find step without OCR. */
import type { Orientation, Quad } from '../../src/domain/geometry.js';
import type { PageText, TextLine } from '../../src/domain/text-layer.js';

export function quad(x: number, y: number, width: number, height: number): Quad {
  return [
    { x, y },
    { x: x + width, y },
    { x: x + width, y: y + height },
    { x, y: y + height },
  ];
}

/** A horizontal line whose characters are `charWidth` wide, starting at (x, y). */
export function line(
  text: string,
  options: {
    x?: number;
    y?: number;
    charWidth?: number;
    height?: number;
    confidence?: number;
    orientation?: Orientation;
  } = {},
): TextLine {
  const {
    x = 10,
    y = 10,
    charWidth = 10,
    height = 20,
    confidence = 0.95,
    orientation = 0,
  } = options;
  const chars = Array.from(text).map((ch, i) => ({
    text: ch,
    quad: quad(x + i * charWidth, y, charWidth, height),
    confidence,
  }));
  return {
    text,
    chars,
    quad: quad(x, y, charWidth * chars.length, height),
    confidence,
    orientation,
  };
}

export function page(lines: TextLine[], index = 0): PageText {
  return { page: index, width: 1000, height: 1000, unit: 'px', source: 'ocr', lines };
}
