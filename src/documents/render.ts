/** Renders PDF pages to pixels with MuPDF, for OCR and for raster output. */
import type { RasterImage } from '../domain/raster.js';
import type { mupdf as MuPdf } from './mupdf.js';
import { mupdf } from './mupdf.js';
import { checkPageArea, onPdfPage, pixelLimitOf } from './page-area.js';

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
  return onPdfPage(pdf, index, (page) => {
    checkPageArea(page.getBounds(), dpi, index, maxPixels);
    const scale = dpi / 72;
    const pixmap = page.toPixmap(
      mupdf.Matrix.scale(scale, scale),
      mupdf.ColorSpace.DeviceRGB,
      false,
      true,
    );
    try {
      return pixmapToRaster(pixmap);
    } finally {
      pixmap.destroy();
    }
  });
}

export interface PageContent {
  /** Characters in the page's text layer. */
  readonly textChars: number;
  /** Fraction of the page area covered by images (scans, photos of cards). */
  readonly imageCoverage: number;
  /** Resolution at which the page's largest image is placed (pixels per inch); null without images. */
  readonly imageDpi: number | null;
  /** Vector graphics drawn on the page (rules, boxes, a QR code drawn as squares...). */
  readonly vectors: number;
}

/** What a page is made of: decides whether it must be OCR'd on top of its text layer. */
export function describePdfPage(pdf: MuPdf.PDFDocument, index: number): PageContent {
  return onPdfPage(pdf, index, (page) => {
    const [x0, y0, x1, y1] = page.getBounds();
    const pageArea = Math.max(1, (x1 - x0) * (y1 - y0));
    let textChars = 0;
    let imageArea = 0;
    let vectors = 0;
    let largest = { area: 0, dpi: null as number | null };
    const text = page.toStructuredText('preserve-images,vectors');
    try {
      text.walk({
        onChar: () => {
          textChars += 1;
        },
        onImageBlock: ([bx0, by0, bx1, by1], _transform, image) => {
          const area = Math.max(0, bx1 - bx0) * Math.max(0, by1 - by0);
          imageArea += area;
          if (area > largest.area) {
            const pixels = image.getWidth() * image.getHeight();
            largest = { area, dpi: Math.sqrt(pixels / (area / (72 * 72))) };
          }
        },
        onVector: () => {
          vectors += 1;
        },
      });
    } finally {
      text.destroy();
    }
    return {
      textChars,
      imageCoverage: Math.min(1, imageArea / pageArea),
      imageDpi: largest.dpi,
      vectors,
    };
  });
}
