/**
 * Metadata out of the files the global redaction returns (or kept, when asked): a PDF's
 * information dictionary, XMP, page thumbnails and PieceInfo; an image's EXIF (with its GPS
 * directory and thumbnail), XMP, IPTC and PNG text chunks, which sharp writes only when told to.
 */
import sharp, { type Sharp } from 'sharp';
import type { RasterImage } from '../ocr/types.js';
import type { FileFormat } from './document.js';
import { mupdf } from './mupdf.js';

/** The format an image is written back in: its own, but BMP as PNG (sharp writes no BMP). */
export const OUTPUT_FORMAT_FOR: Record<FileFormat, FileFormat> = {
  pdf: 'pdf',
  png: 'png',
  jpeg: 'jpeg',
  webp: 'webp',
  tiff: 'tiff',
  bmp: 'png',
};

/** Removes the PDF's metadata objects; the caller saves with garbage collection. */
export function stripPdfMetadata(pdf: mupdf.PDFDocument): void {
  const trailer = pdf.getTrailer();
  if (!trailer.get('Info').isNull()) trailer.delete('Info');
  const root = trailer.get('Root');
  if (!root.isNull()) {
    const catalog = root.resolve();
    catalog.delete('Metadata');
    catalog.delete('PieceInfo');
  }
  for (let i = 0; i < pdf.countPages(); i += 1) {
    const page = pdf.findPage(i);
    for (const key of ['Metadata', 'Thumb', 'PieceInfo']) page.delete(key);
  }
}

type ImageFormat = Exclude<FileFormat, 'pdf' | 'bmp'>;

function encoder(image: Sharp, format: ImageFormat): Sharp {
  switch (format) {
    case 'jpeg':
      return image.jpeg({ quality: 92 });
    case 'png':
      return image.png({ compressionLevel: 6 });
    case 'webp':
      return image.webp({ quality: 92 });
    case 'tiff':
      return image.tiff({ compression: 'lzw' });
  }
}

const fromRaw = (page: RasterImage) =>
  sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: page.channels } });

/**
 * The pages in `format` (a TIFF with every page). Without metadata by default; with
 * `keepMetadataFrom` (the original file) its EXIF, XMP and ICC profile are carried over for a
 * one-page image, the orientation set to 1 since the pixels are upright already. A multi-page
 * TIFF is written without metadata either way (sharp cannot carry it over page by page).
 */
export async function encodeImageForOutput(
  pages: readonly RasterImage[],
  format: FileFormat,
  options: { readonly keepMetadataFrom?: Buffer } = {},
): Promise<Buffer> {
  if (format === 'pdf' || format === 'bmp') throw new Error(`no image encoder for ${format}`);
  const [first] = pages;
  if (!first) throw new Error('no page to encode');
  if (pages.length > 1) {
    const frames = await Promise.all(pages.map((p) => fromRaw(p).png().toBuffer()));
    return encoder(sharp(frames, { join: { animated: true } }), format).toBuffer();
  }
  if (!options.keepMetadataFrom) return encoder(fromRaw(first), format).toBuffer();
  // The original's metadata rides along when the edited pixels are laid over the original,
  // turned upright as the pixels were.
  const upright = await sharp(options.keepMetadataFrom).autoOrient().toBuffer();
  const raw = await fromRaw(first).png().toBuffer();
  return encoder(
    sharp(upright)
      .composite([{ input: raw, left: 0, top: 0 }])
      .keepMetadata()
      .withMetadata({ orientation: 1 }),
    format,
  ).toBuffer();
}

/** The image re-encoded without metadata, its pixels unchanged (JPEG re-encoded at quality 95). */
export async function stripImageMetadata(
  bytes: Buffer,
  format: FileFormat,
): Promise<{ bytes: Buffer; format: FileFormat }> {
  const output = OUTPUT_FORMAT_FOR[format];
  if (output === 'pdf' || output === 'bmp') return { bytes, format };
  const image = sharp(bytes, { pages: -1 }).autoOrient();
  // JPEG has no lossless re-encoding in sharp: quality 95 keeps the picture.
  const encoded =
    output === 'jpeg'
      ? image.jpeg({ quality: 95 })
      : output === 'webp'
        ? image.webp({ lossless: true })
        : encoder(image, output);
  return { bytes: await encoded.toBuffer(), format: output };
}
