/** Renders PDF pages to pixels with MuPDF, for OCR and for raster output. */
import type { RasterImage } from '../domain/raster.js';
import type { PageText } from '../domain/text-layer.js';
import type { mupdf as MuPdf } from './mupdf.js';
import { mupdf } from './mupdf.js';
import { checkPageArea, onPdfPage, pixelLimitOf } from './page-area.js';
import { contentFrom, type PageContent } from './page-content.js';
import { textLayerFrom } from './pdf-text.js';

/** Copies a pixmap's samples into a tightly packed RGB buffer. */
export function pixmapToRaster(pixmap: MuPdf.Pixmap): RasterImage {
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  const n = pixmap.getNumberOfComponents();
  const stride = pixmap.getStride();
  const samples = pixmap.getPixels();
  if (n === 3 && stride === width * 3) {
    // Already packed RGB (what renderPdfPage asks for): one copy out of MuPDF's memory.
    return {
      width,
      height,
      channels: 3,
      pixels: Buffer.from(samples.subarray(0, width * height * 3)),
    };
  }
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    const row = y * stride;
    for (let x = 0; x < width; x += 1) {
      const from = row + x * n;
      const to = (y * width + x) * 3;
      pixels[to] = samples[from] ?? 0;
      pixels[to + 1] = samples[from + 1] ?? 0;
      pixels[to + 2] = samples[from + 2] ?? 0;
    }
  }
  return { width, height, channels: 3, pixels };
}

/** Draws the pixmap of a page or of its display list under a matrix. */
type Draw = (matrix: MuPdf.Matrix) => MuPdf.Pixmap;

/** The page's pixels at `dpi`, refused (page_too_large) beyond `maxPixels`. */
function pixelsAt(
  draw: Draw,
  bounds: MuPdf.Rect,
  dpi: number,
  index: number,
  maxPixels: number,
): RasterImage {
  checkPageArea(bounds, dpi, index, maxPixels);
  const scale = dpi / 72;
  const pixmap = draw(mupdf.Matrix.scale(scale, scale));
  try {
    return pixmapToRaster(pixmap);
  } finally {
    pixmap.destroy();
  }
}

/**
 * Renders page `index` at `dpi` (72 dpi = one pixel per PDF point), annotations included;
 * refuses a page that would exceed `maxPixels` (by default the limit intake opened it with).
 */
export function renderPdfPage(
  pdf: MuPdf.PDFDocument,
  index: number,
  dpi: number,
  maxPixels: number = pixelLimitOf(pdf),
): RasterImage {
  return onPdfPage(pdf, index, (page) =>
    pixelsAt(
      (matrix) => page.toPixmap(matrix, mupdf.ColorSpace.DeviceRGB, false, true),
      page.getBounds(),
      dpi,
      index,
      maxPixels,
    ),
  );
}

export interface PageOnce {
  readonly textLayer: PageText;
  readonly content: PageContent;
  /** The page rendered at the resolution `dpiFor` chose; null when it chose none. */
  readonly raster: RasterImage | null;
  readonly dpi: number | null;
}

/**
 * Reads page `index`'s text layer and what it is made of, and renders it when `dpiFor` gives a
 * resolution for that content, interpreting the page's content stream once: MuPDF records
 * its drawing in a display list, which each of the three replays. A page's drawing can be costly to interpret
 * (a 2 KB page whose forms fan out to 2.7 million segments: 2 s for each pass) and is cheap
 * to replay (its text from the list in 0.07 s).
 */
export function readPdfPageOnce(
  pdf: MuPdf.PDFDocument,
  index: number,
  dpiFor: (content: PageContent) => number | null,
  maxPixels: number = pixelLimitOf(pdf),
): PageOnce {
  return onPdfPage(pdf, index, (page) => {
    const bounds = page.getBounds();
    // The content stream only, as the page's own text passes read it; annotations and form
    // fields are drawn over it when the page is rendered, as a render of the page draws them.
    const list = page.toDisplayList(false);
    try {
      const textLayer = textLayerFrom(list, index, bounds);
      const content = contentFrom(list, bounds, textLayer);
      const dpi = dpiFor(content);
      const raster =
        dpi === null
          ? null
          : pixelsAt(
              (matrix) => drawPage(page, bounds, list, matrix),
              bounds,
              dpi,
              index,
              maxPixels,
            );
      return { textLayer, content, raster, dpi };
    } finally {
      list.destroy();
    }
  });
}

/**
 * What `page.toPixmap(matrix, DeviceRGB, false, true)` draws, with the content stream replayed
 * from its display list: white, the contents, then annotations and form fields. The pixmap
 * covers the page's bounds under the matrix, rounded outwards as MuPDF rounds them.
 */
function drawPage(
  page: MuPdf.PDFPage,
  bounds: MuPdf.Rect,
  contents: MuPdf.DisplayList,
  matrix: MuPdf.Matrix,
): MuPdf.Pixmap {
  const [x0, y0, x1, y1] = mupdf.Rect.transform(bounds, matrix);
  const box: MuPdf.Rect = [
    Math.floor(x0 + 0.001),
    Math.floor(y0 + 0.001),
    Math.ceil(x1 - 0.001),
    Math.ceil(y1 - 0.001),
  ];
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, box, false);
  try {
    pixmap.clear(255);
    const device = new mupdf.DrawDevice(matrix, pixmap);
    try {
      contents.run(device, mupdf.Matrix.identity);
      page.runPageAnnots(device, mupdf.Matrix.identity);
      page.runPageWidgets(device, mupdf.Matrix.identity);
      device.close();
    } finally {
      device.destroy();
    }
    return pixmap;
  } catch (error) {
    pixmap.destroy();
    throw error;
  }
}
