/** Encodes results: images with sharp (metadata stripped), PDFs of images with MuPDF. */
import sharp, { type Sharp } from 'sharp';
import type { RasterImage } from '../domain/raster.js';
import type { FileFormat } from './document.js';
import { mupdf } from './mupdf.js';
import { savePdfOutput } from './pdf-output.js';

/** Resolution at which an image becomes a PDF page, and a PDF page becomes an image. */
export const IMAGE_PAGE_DPI = 150;

/** The image formats results are written in (a BMP comes back as PNG: nothing writes BMP). */
export type ImageFormat = Exclude<FileFormat, 'pdf' | 'bmp'>;

/** A raster as sharp's input. sharp writes no metadata unless asked: no EXIF, GPS or ICC. */
export function fromRaw(image: RasterImage): Sharp {
  return sharp(image.pixels, {
    raw: { width: image.width, height: image.height, channels: image.channels },
  });
}

/** The one set of encoder settings for every written image. */
export function encoder(image: Sharp, format: ImageFormat): Sharp {
  switch (format) {
    case 'jpeg':
      // Without optimised Huffman tables: an A4 page at 300 dpi encodes in about 20 ms instead
      // of 150 (a card photo 4 ms instead of 9), for files 15-30% larger.
      return image.jpeg({ quality: 92, optimiseCoding: false });
    case 'png':
      return image.png({ compressionLevel: 6 });
    case 'webp':
      return image.webp({ quality: 92 });
    case 'tiff':
      return image.tiff({ compression: 'lzw' });
  }
}

export async function encodeImage(image: RasterImage, format: 'jpeg' | 'png'): Promise<Buffer> {
  const pipeline = fromRaw(image);
  // JPEG has no alpha: a transparent pixel becomes white, not black.
  return encoder(
    format === 'jpeg' ? pipeline.flatten({ background: '#ffffff' }) : pipeline,
    format,
  ).toBuffer();
}

/** A page image already encoded as JPEG, with the resolution it is placed at. */
export interface EncodedPage {
  readonly jpeg: Buffer;
  readonly width: number;
  readonly height: number;
  readonly dpi: number;
}

/** Encodes a page image for imagesToPdf / encodedPagesToPdf. */
export async function encodePage(raster: RasterImage, dpi = IMAGE_PAGE_DPI): Promise<EncodedPage> {
  return {
    jpeg: await encodeImage(raster, 'jpeg'),
    width: raster.width,
    height: raster.height,
    dpi,
  };
}

/**
 * A PDF with one image per page, each page sized for its image at its resolution (`dpis`, one
 * per image; IMAGE_PAGE_DPI when not given), so that a rasterised page keeps its size.
 */
export async function imagesToPdf(
  images: readonly RasterImage[],
  dpis: readonly number[] = [],
): Promise<Buffer> {
  const pages: EncodedPage[] = [];
  for (const [index, raster] of images.entries()) {
    pages.push(await encodePage(raster, dpis[index] ?? IMAGE_PAGE_DPI));
  }
  return encodedPagesToPdf(pages);
}

/** The PDF of pages encoded beforehand (encoding can then overlap the work on later pages). */
export function encodedPagesToPdf(pages: readonly EncodedPage[]): Buffer {
  const doc = new mupdf.PDFDocument();
  try {
    for (const page of pages) {
      const image = new mupdf.Image(page.jpeg);
      const width = (page.width * 72) / page.dpi;
      const height = (page.height * 72) / page.dpi;
      const resources = doc.addObject({ XObject: { Im0: doc.addImage(image) } });
      const contents = `q ${width} 0 0 ${height} 0 0 cm /Im0 Do Q`;
      doc.insertPage(-1, doc.addPage([0, 0, width, height], 0, resources, contents));
      image.destroy();
    }
    return savePdfOutput(doc);
  } finally {
    doc.destroy();
  }
}
