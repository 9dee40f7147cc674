/**
 * Reads a PDF page's own text layer with MuPDF's structured text: exact character quads in
 * page coordinates (points, origin top-left, y down: the space MuPDF renders and annotates in).
 */
import type { mupdf as MuPdf } from './mupdf.js';
import { onPdfPage } from './page-area.js';
import type { Orientation, Quad } from '../domain/geometry.js';
import type { PageText, TextChar, TextLine } from '../domain/text-layer.js';

/** MuPDF quads are [ul, ur, ll, lr]; ours run clockwise from the top-left. */
export function fromMupdfQuad(q: MuPdf.Quad): Quad {
  return [
    { x: q[0], y: q[1] },
    { x: q[2], y: q[3] },
    { x: q[6], y: q[7] },
    { x: q[4], y: q[5] },
  ];
}

export function toMupdfQuad(q: Quad): MuPdf.Quad {
  const [tl, tr, br, bl] = q;
  return [tl.x, tl.y, tr.x, tr.y, bl.x, bl.y, br.x, br.y];
}

/** MuPDF gives a line's writing direction as a unit vector [dx, dy] (y down). */
function orientationOf([dx, dy]: MuPdf.Point): Orientation {
  const angle = (Math.round((Math.atan2(dy, dx) * 2) / Math.PI) * 90 + 360) % 360;
  return angle as Orientation;
}

function lineOf(chars: TextChar[], orientation: Orientation): TextLine {
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
  const lines: TextLine[] = [];
  let chars: TextChar[] = [];
  let orientation: Orientation = 0;
  const text = source.toStructuredText('preserve-whitespace');
  try {
    text.walk({
      beginLine: (_bbox, _wmode, direction) => {
        chars = [];
        orientation = orientationOf(direction);
      },
      onChar: (c, _origin, _font, _size, quad) => {
        chars.push({ text: c, quad: fromMupdfQuad(quad), confidence: 1 });
      },
      endLine: () => {
        if (chars.length > 0) lines.push(lineOf(chars, orientation));
      },
    });
  } finally {
    text.destroy();
  }
  return { page: index, width: x1 - x0, height: y1 - y0, unit: 'pt', source: 'pdf', lines };
}

export function readPdfTextLayer(pdf: MuPdf.PDFDocument, index: number): PageText {
  return onPdfPage(pdf, index, (page) => textLayerFrom(page, index, page.getBounds()));
}
