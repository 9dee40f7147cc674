/**
 * What a PDF page is made of (its text, images and vector graphics): decides whether the page
 * is OCR'd on top of its text layer, at what resolution, and whether it may hold a QR code.
 */
import type { PageText } from '../domain/text-layer.js';
import type { mupdf as MuPdf } from './mupdf.js';
import type { TextSource } from './pdf-text.js';
import { implausibleLines } from './text-plausibility.js';

export interface PageContent {
  /** Characters in the page's text layer. */
  readonly textChars: number;
  /** Lines of the text layer that decode to something no page prints (text-plausibility.ts). */
  readonly implausibleLines: number;
  /** Fraction of the page area covered by images (scans, photos of cards). */
  readonly imageCoverage: number;
  /** Resolution at which the page's largest image is placed (pixels per inch); null without images. */
  readonly imageDpi: number | null;
  /** Vector graphics drawn on the page (rules, boxes, a QR code drawn as squares...). */
  readonly vectors: number;
}

/**
 * What the page whose bounds are `bounds` is made of, read from `source`. Its characters are
 * counted in its text layer, already read: a walk that visits characters builds an object for
 * each. (Replaying the page through a JavaScript device instead, to skip this pass on pages of text
 * alone, saved 1 ms a page; but mupdf.js hands such a device paths that the garbage collector
 * later frees, and that crashed the document worker: out of bounds in fz_drop_path.)
 */
export function contentFrom(
  source: TextSource,
  [x0, y0, x1, y1]: MuPdf.Rect,
  textLayer: PageText,
): PageContent {
  const textChars = textLayer.lines.reduce((sum, line) => sum + line.chars.length, 0);
  const pageArea = Math.max(1, (x1 - x0) * (y1 - y0));
  let imageArea = 0;
  let vectors = 0;
  let largest = { area: 0, dpi: null as number | null };
  const text = source.toStructuredText('preserve-images,vectors');
  try {
    text.walk({
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
    implausibleLines: implausibleLines(textLayer),
    imageCoverage: Math.min(1, imageArea / pageArea),
    imageDpi: largest.dpi,
    vectors,
  };
}
