/**
 * True removal from a PDF page with the replacement drawn in place: MuPDF redaction annotations
 * take each value's text out of the content stream (and blank image pixels under it, which is
 * how a value on a scanned page goes), then each replacement is written as real text (Helvetica)
 * in a content stream of our own, so that it is extractable and searchable like the words around
 * it. A region without text is left as a black box (box mode).
 */
import { mupdf } from '../documents/mupdf.js';
import { toMupdfQuad } from '../ocr/pdf-text.js';
import type { Quad } from '../ocr/types.js';
import { boundsOf } from './geometry.js';

export interface PdfReplacement {
  /** Page coordinates: points, origin top-left (MuPDF's page space). */
  readonly quad: Quad;
  /** Null: a black box; a string: drawn in place ('' leaves the place blank). */
  readonly text: string | null;
}

const FONT_KEY = 'PardaHelv';

/** A string as a PDF literal: Helvetica's simple encoding takes ASCII; anything else is `?`. */
const literal = (text: string) =>
  `(${text.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`)})`;

function fittedSize(font: mupdf.Font, text: string, width: number, height: number): number {
  let advance = 0;
  for (const ch of text)
    advance += font.advanceGlyph(font.encodeCharacter(ch.codePointAt(0) ?? 32), 0);
  const size = 0.8 * height;
  return advance * size > width ? (0.95 * width) / advance : size;
}

export function replacePdfRegions(
  pdf: mupdf.PDFDocument,
  index: number,
  regions: readonly PdfReplacement[],
): void {
  if (regions.length === 0) return;
  const page = pdf.loadPage(index);
  try {
    // Box mode covers black; the other modes clear the place for the text drawn below.
    const black = regions.every((r) => r.text === null);
    for (const { quad } of regions) {
      const annotation = page.createAnnotation('Redact');
      annotation.setQuadPoints([toMupdfQuad(quad)]);
      annotation.update();
    }
    page.applyRedactions(
      black,
      mupdf.PDFPage.REDACT_IMAGE_PIXELS,
      mupdf.PDFPage.REDACT_LINE_ART_NONE,
      mupdf.PDFPage.REDACT_TEXT_REMOVE,
    );
    const drawn = regions.filter((r) => r.text !== null && r.text !== '');
    if (drawn.length > 0) drawText(pdf, index, page, drawn);
  } finally {
    page.destroy();
  }
}

const apply = ([a, b, c, d, e, f]: mupdf.Matrix, x: number, y: number): [number, number] => [
  a * x + c * y + e,
  b * x + d * y + f,
];

function drawText(
  pdf: mupdf.PDFDocument,
  index: number,
  page: mupdf.PDFPage,
  regions: readonly PdfReplacement[],
): void {
  const font = new mupdf.Font('Helvetica');
  try {
    // Page space (top-left origin, the page's rotation applied) back to the content's space.
    const toContent = mupdf.Matrix.invert(page.getTransform());
    const commands: string[] = [];
    for (const { quad, text } of regions) {
      const b = boundsOf(quad);
      const size = fittedSize(font, text ?? '', b.x1 - b.x0, b.y1 - b.y0);
      const baseline = b.y0 + (b.y1 - b.y0 + 0.7 * size) / 2;
      const [x, y] = apply(toContent, b.x0 + 0.5, baseline);
      commands.push(
        `BT /${FONT_KEY} ${size.toFixed(2)} Tf 0 g ${x.toFixed(2)} ${y.toFixed(2)} Td ` +
          `${literal(text ?? '')} Tj ET`,
      );
    }
    const pageObject = pdf.findPage(index);
    const resources = pageObject.get('Resources').isNull()
      ? pdf.newDictionary()
      : pageObject.get('Resources').resolve();
    let fonts = resources.get('Font');
    if (fonts.isNull()) {
      fonts = pdf.newDictionary();
      resources.put('Font', fonts);
    }
    fonts.resolve().put(FONT_KEY, pdf.addSimpleFont(font));
    pageObject.put('Resources', resources);
    // The page's own content may leave its graphics state changed: wrap it in q ... Q.
    const contents = pdf.newArray();
    contents.push(pdf.addStream('q\n', {}));
    const old = pageObject.get('Contents');
    if (old.isArray()) {
      old.forEach((item) => {
        contents.push(item);
      });
    } else if (!old.isNull()) contents.push(old);
    contents.push(pdf.addStream(`\nQ\nq ${commands.join('\n')} Q\n`, {}));
    pageObject.put('Contents', contents);
  } finally {
    font.destroy();
  }
}
