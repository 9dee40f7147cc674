/**
 * The last resort of a PDF redaction: a page whose removed text is still read in the saved
 * output (text that MuPDF's redaction cannot take out of the content stream, such as a value
 * carried in marked content's /ActualText) is replaced by a picture of itself. The page is
 * rendered as it now looks (annotations included), every cover is applied again in pixels, and
 * the page's content, resources and annotations give way to that one image, so no text of the
 * page survives while every other page keeps its own.
 */
import { mupdf } from '../documents/mupdf.js';
import { renderPdfPage } from '../documents/render.js';
import { encodeImage } from '../documents/writers.js';
import type { RasterImage } from '../domain/raster.js';

/** Keys of a page dictionary that describe what the old content drew, or where. */
const DROPPED_KEYS = [
  'Annots',
  'CropBox',
  'BleedBox',
  'TrimBox',
  'ArtBox',
  'Group',
  'StructParents',
  'Tabs',
];

/**
 * Replaces page `index` of `pdf` by its rendering at `dpi`, passed through `cover` (which gets
 * the pixels, top left at the page's top left, one pixel = 72/dpi points). The page keeps its
 * visible size; a rotated page becomes an upright one of the size it was shown at.
 */
export async function rasterisePdfPage(
  pdf: mupdf.PDFDocument,
  index: number,
  dpi: number,
  cover: (pixels: RasterImage) => RasterImage,
): Promise<void> {
  const pixels = cover(renderPdfPage(pdf, index, dpi));
  const jpeg = await encodeImage(pixels, 'jpeg');
  const width = (pixels.width * 72) / dpi;
  const height = (pixels.height * 72) / dpi;
  const image = new mupdf.Image(jpeg);
  try {
    const page = pdf.findPage(index);
    page.put('Resources', pdf.addObject({ XObject: { Im0: pdf.addImage(image) } }));
    page.put('Contents', pdf.addStream(`q ${width} 0 0 ${height} 0 0 cm /Im0 Do Q`, {}));
    page.put('MediaBox', [0, 0, width, height]);
    page.put('Rotate', 0);
    for (const key of DROPPED_KEYS) page.delete(key);
  } finally {
    image.destroy();
  }
}
