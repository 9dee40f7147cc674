/**
 * The PDF form of the operators that draw a value's replacement in its place (mask, token,
 * pseudonym): MuPDF redaction annotations take each value's text out of the content stream (and
 * blank image pixels under it, which is how a value on a scanned page goes), then each
 * replacement is written as real text (Helvetica) in a content stream of our own, so that it is
 * extractable and searchable like the words around it.
 */
import { mupdf } from '../documents/mupdf.js';
import type { Replacement } from './operators/types.js';
import { redactQuads } from './pdf.js';
import { advanceInEms, placeReplacement, placementMatrix } from './text-placement.js';

const FONT_KEY = 'PardaHelv';

/** A string as a PDF literal: Helvetica's simple encoding takes ASCII; anything else is `?`. */
const literal = (text: string) =>
  `(${text.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`)})`;

export function replacePdfRegions(
  pdf: mupdf.PDFDocument,
  index: number,
  regions: readonly Replacement[],
): void {
  if (regions.length === 0) return;
  const page = pdf.loadPage(index);
  try {
    // The places are left clear for the text drawn below.
    redactQuads(
      page,
      regions.map((r) => r.quad),
      false,
    );
    const drawn = regions.filter((r) => r.text !== '');
    if (drawn.length > 0) drawText(pdf, index, page, drawn);
  } finally {
    page.destroy();
  }
}

function drawText(
  pdf: mupdf.PDFDocument,
  index: number,
  page: mupdf.PDFPage,
  regions: readonly Replacement[],
): void {
  const font = new mupdf.Font('Helvetica');
  try {
    // Page space (top-left origin, the page's rotation applied) back to the content's space.
    const toContent = mupdf.Matrix.invert(page.getTransform());
    const commands: string[] = [];
    for (const { quad, textQuad, source, text } of regions) {
      const place = placeReplacement(textQuad, source, advanceInEms(font, text), quad);
      // The text matrix in page space, then into the content's space; the size is in it.
      const matrix = mupdf.Matrix.concat(placementMatrix(place), toContent);
      commands.push(
        `BT /${FONT_KEY} 1 Tf 0 g ${matrix.map((v) => v.toFixed(4)).join(' ')} Tm ` +
          `${literal(text)} Tj ET`,
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
