/**
 * Decodes image files into upright 8-bit sRGB pages: sharp (libvips) for JPEG, PNG, WEBP and
 * TIFF; MuPDF for BMP, which the libvips build inside sharp cannot read.
 */
import { mupdf } from './mupdf.js';
import sharp, { type Metadata } from 'sharp';
import type { FileFormat, RasterPage } from './document.js';
import { DocumentError } from '../domain/errors.js';
import { endsCompletely } from './sniff.js';
import { tiffPageCount } from './tiff-chain.js';

export interface ImageLimits {
  readonly maxPixels: number;
  readonly maxPages: number;
}

function unreadable(format: FileFormat, bytes: Buffer): DocumentError {
  return endsCompletely(format, bytes)
    ? new DocumentError('corrupt_file', `The ${format.toUpperCase()} file could not be decoded.`)
    : new DocumentError(
        'truncated_file',
        `The ${format.toUpperCase()} file ends before its end marker; it looks truncated.`,
      );
}

function checkPixels(width: number, height: number, limits: ImageLimits): void {
  if (width * height > limits.maxPixels) {
    throw new DocumentError(
      'image_too_large',
      `An image page of ${width}x${height} pixels exceeds the limit of ${limits.maxPixels} pixels.`,
    );
  }
}

async function decodeWithSharp(
  format: FileFormat,
  bytes: Buffer,
  limits: ImageLimits,
): Promise<RasterPage[]> {
  // Header first: the page chain and dimensions are checked before a pixel is decompressed.
  const chained = format === 'tiff' ? tiffPageCount(bytes, limits.maxPages) : 0;
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw unreadable(format, bytes);
  }
  const width = metadata.width;
  const height = metadata.height;
  if (!width || !height) throw unreadable(format, bytes);
  const pageCount = Math.max(metadata.pages ?? 1, chained);
  if (pageCount > limits.maxPages) {
    throw new DocumentError(
      'too_many_pages',
      `The image has ${pageCount} pages; at most ${limits.maxPages} are accepted.`,
    );
  }
  // A page the decoder does not list would be dropped from the output unread.
  if (format === 'tiff' && metadata.pages !== undefined && metadata.pages !== chained) {
    throw new DocumentError(
      'corrupt_file',
      `The TIFF file's page directory lists ${chained} pages; only ${metadata.pages} can be decoded.`,
    );
  }
  const pageHeight = metadata.pageHeight ?? height;
  checkPixels(width, pageCount > 1 ? pageHeight : height, limits);

  const pages: RasterPage[] = [];
  for (let index = 0; index < pageCount; index += 1) {
    try {
      const { data, info } = await sharp(bytes, {
        page: index,
        failOn: 'error',
        limitInputPixels: limits.maxPixels,
      })
        .rotate()
        .toColourspace('srgb')
        .raw()
        .toBuffer({ resolveWithObject: true });
      if (info.channels !== 3 && info.channels !== 4) throw new Error('unexpected channel count');
      pages.push({
        kind: 'raster',
        index,
        width: info.width,
        height: info.height,
        channels: info.channels,
        pixels: data,
        reoriented: (metadata.orientation ?? 1) !== 1,
      });
    } catch {
      throw unreadable(format, bytes);
    }
  }
  return pages;
}

function decodeWithMupdf(format: FileFormat, bytes: Buffer, limits: ImageLimits): RasterPage[] {
  // MuPDF fills the missing rows of a cut-off BMP instead of failing; refuse it as we do a PDF.
  if (!endsCompletely(format, bytes)) throw unreadable(format, bytes);
  let image: mupdf.Image | undefined;
  let pixmap: mupdf.Pixmap | undefined;
  let rgb: mupdf.Pixmap | undefined;
  try {
    try {
      image = new mupdf.Image(bytes);
    } catch {
      throw unreadable(format, bytes);
    }
    checkPixels(image.getWidth(), image.getHeight(), limits);
    try {
      pixmap = image.toPixmap();
      rgb = pixmap.convertToColorSpace(mupdf.ColorSpace.DeviceRGB, true);
    } catch {
      throw unreadable(format, bytes);
    }
    const width = rgb.getWidth();
    const height = rgb.getHeight();
    // MuPDF counts the alpha channel among the components.
    const channels = rgb.getNumberOfComponents();
    if (channels !== 3 && channels !== 4) throw unreadable(format, bytes);
    const stride = rgb.getStride();
    const samples = rgb.getPixels();
    const pixels = Buffer.alloc(width * height * channels);
    for (let y = 0; y < height; y += 1) {
      pixels.set(samples.subarray(y * stride, y * stride + width * channels), y * width * channels);
    }
    return [{ kind: 'raster', index: 0, width, height, channels, pixels, reoriented: false }];
  } finally {
    rgb?.destroy();
    pixmap?.destroy();
    image?.destroy();
  }
}

export async function decodeImage(
  format: FileFormat,
  bytes: Buffer,
  limits: ImageLimits,
): Promise<RasterPage[]> {
  return format === 'bmp'
    ? decodeWithMupdf(format, bytes, limits)
    : decodeWithSharp(format, bytes, limits);
}
