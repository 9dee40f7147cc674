/** Builds text layers by hand, for testing the find step without OCR. */
import { frameQuad, type Orientation, type Quad } from '../../src/domain/geometry.js';
import type { PageText, TextLine } from '../../src/domain/text-layer.js';
import type { ReadHints } from '../../src/ocr/types.js';

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

/**
 * What an engine reads where nothing is left to read: no line on a page; on known lines
 * (ReadHints.lines), one line without characters for each, as the engine answers them.
 */
export function readingNothing(hints?: ReadHints): PageText {
  const lines = (hints?.lines ?? []).map((frame) => ({
    text: '',
    chars: [],
    quad: frameQuad(frame, 0, frame.length),
    confidence: 0,
    orientation: frame.orientation,
  }));
  return page(lines);
}
