/**
 * Reads a PDF page's own text layer with MuPDF's structured text: exact character quads in
 * page coordinates (points, origin top-left, y down: the space MuPDF renders and annotates in).
 */
import type { mupdf as MuPdf } from './mupdf.js';
import { onPdfPage } from './page-area.js';
import { stextLines, type StextLine } from './stext-lines.js';
import type { Orientation } from '../domain/geometry.js';
import type { PageText, TextChar, TextLine } from '../domain/text-layer.js';

/** MuPDF gives a line's writing direction as a unit vector [dx, dy] (y down). */
function orientationOf([dx, dy]: MuPdf.Point): Orientation {
  const angle = (Math.round((Math.atan2(dy, dx) * 2) / Math.PI) * 90 + 360) % 360;
  return angle as Orientation;
}

function lineOf(chars: readonly TextChar[], orientation: Orientation): TextLine {
  const first = chars[0];
  const last = chars.at(-1);
  if (!first || !last) throw new Error('empty line');
  return {
    text: chars.map((c) => c.text).join(''),
    chars,
    quad: [first.quad[0], last.quad[1], last.quad[2], first.quad[3]],
    confidence: 1,
    orientation,
  };
}

/** What structured text is read from: a page, or its display list (render.ts: readPdfPageOnce). */
export interface TextSource {
  toStructuredText(options: string): MuPdf.StructuredText;
}

/** The text layer of page `index`, read from `source`, whose bounds are `bounds`. */
export function textLayerFrom(source: TextSource, index: number, bounds: MuPdf.Rect): PageText {
  const [x0, y0, x1, y1] = bounds;
  const text = source.toStructuredText('preserve-whitespace');
  let read: StextLine[];
  try {
    read = stextLines(text);
  } finally {
    text.destroy();
  }
  const lines = read
    .filter((line) => line.chars.length > 0)
    .map((line) => lineOf(line.chars, orientationOf(line.direction)));
  return { page: index, width: x1 - x0, height: y1 - y0, unit: 'pt', source: 'pdf', lines };
}

export function readPdfTextLayer(pdf: MuPdf.PDFDocument, index: number): PageText {
  return onPdfPage(pdf, index, (page) => textLayerFrom(page, index, page.getBounds()));
}
