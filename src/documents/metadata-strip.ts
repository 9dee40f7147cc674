/**
 * Metadata out of the files the global redaction returns (or kept, when asked): a PDF's
 * information dictionary, XMP, page thumbnails and PieceInfo; an image's EXIF (with its GPS
 * directory and thumbnail), XMP, IPTC and PNG text chunks, which sharp writes only when told to.
 */
import sharp, { type Sharp } from 'sharp';
import type { RasterImage } from '../domain/raster.js';
import type { FileFormat } from './document.js';
import { mupdf } from './mupdf.js';
import { encoder, fromRaw, type ImageFormat } from './writers.js';

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

/**
 * The pages in `format` (a TIFF with every page). Without metadata by default; with
 * `keepMetadataFrom` (the original file) the edited pixels are laid over the original turned
 * upright, so that its EXIF (GPS included), XMP and ICC profile ride along, the orientation set
 * to 1 as the pixels are upright already; a PNG's text chunks are copied over. The metadata
 * of a multi-page TIFF whose pages differ in size or in sample format is not carried: libvips
 * loads a multi-page file as one strip only when every page is alike.
 */
export async function encodeImageForOutput(
  pages: readonly RasterImage[],
  format: FileFormat,
  options: { readonly keepMetadataFrom?: Buffer } = {},
): Promise<Buffer> {
  if (format === 'pdf' || format === 'bmp') throw new Error(`no image encoder for ${format}`);
  const [first] = pages;
  if (!first) throw new Error('no page to encode');
  const sameSize = pages.every(
    (p) => p.width === first.width && p.height === first.height && p.channels === first.channels,
  );
  if (
    options.keepMetadataFrom &&
    sameSize &&
    (pages.length === 1 || (await pagesAlike(options.keepMetadataFrom, pages.length)))
  ) {
    // All pages as one strip, top to bottom: how sharp holds a multi-page image.
    const strip = Buffer.concat(
      pages.map((p) => p.pixels.subarray(0, p.width * p.height * p.channels)),
    );
    const original = sharp(options.keepMetadataFrom, pages.length > 1 ? { pages: -1 } : {});
    const encoded = await encoder(
      original
        .autoOrient()
        .composite([
          {
            input: strip,
            raw: {
              width: first.width,
              height: first.height * pages.length,
              channels: first.channels,
            },
            left: 0,
            top: 0,
          },
        ])
        .keepMetadata(),
      format,
    ).toBuffer();
    return format === 'png' ? withTextChunksOf(options.keepMetadataFrom, encoded) : encoded;
  }
  if (pages.length > 1) {
    const frames = await Promise.all(pages.map((p) => fromRaw(p).png().toBuffer()));
    return encoder(sharp(frames, { join: { animated: true } }), format).toBuffer();
  }
  return encoder(fromRaw(first), format).toBuffer();
}

/** Whether every page of a multi-page file has the first page's size, bands and sample format. */
async function pagesAlike(file: Buffer, count: number): Promise<boolean> {
  const shapes = await Promise.all(
    Array.from({ length: count }, async (_, page) => {
      const m = await sharp(file, { page, limitInputPixels: false }).metadata();
      return `${m.width}x${m.height}x${m.channels}:${m.depth}:${m.space}`;
    }),
  );
  return shapes.every((shape) => shape === shapes[0]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const TEXT_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt']);

/**
 * `png` with the text chunks (tEXt, zTXt, iTXt) of `original` before its IEND inserted after its header, each
 * copied whole with its own CRC. By hand: sharp reads these chunks but writes none, and copying
 * a chunk needs only its length field.
 */
function withTextChunksOf(original: Buffer, png: Buffer): Buffer {
  if (!original.subarray(0, 8).equals(PNG_SIGNATURE)) return png;
  const chunks: Buffer[] = [];
  for (let at = 8; at + 12 <= original.length;) {
    const length = original.readUInt32BE(at);
    const end = at + 12 + length;
    if (end > original.length) break;
    const type = original.toString('latin1', at + 4, at + 8);
    // Past IEND lies no image: whatever was appended there is not copied.
    if (type === 'IEND') break;
    if (TEXT_CHUNKS.has(type)) chunks.push(original.subarray(at, end));
    at = end;
  }
  if (chunks.length === 0) return png;
  const headerEnd = 8 + 12 + png.readUInt32BE(8); // signature, then IHDR (length, type, data, CRC)
  return Buffer.concat([png.subarray(0, headerEnd), ...chunks, png.subarray(headerEnd)]);
}

/** JPEG at quality 95 (sharp has no lossless JPEG re-encoding; 95 keeps the picture), the rest lossless. */
function rewriteEncoder(image: Sharp, format: ImageFormat): Sharp {
  if (format === 'jpeg') return image.jpeg({ quality: 95 });
  if (format === 'webp') return image.webp({ lossless: true });
  return encoder(image, format);
}

function imageFormatOf(format: FileFormat): ImageFormat {
  // A PDF is saved by savePdfOutput, a BMP encoded from its decoded pixels: never passed through.
  if (format === 'pdf' || format === 'bmp') throw new Error(`no re-encoding from ${format}`);
  return format;
}

/** The image decoded (every page of a TIFF), passed through `prepare`, encoded in its format. */
async function reencoded(
  bytes: Buffer,
  format: FileFormat,
  prepare: (image: Sharp) => Sharp,
): Promise<{ bytes: Buffer; format: ImageFormat }> {
  const output = imageFormatOf(format);
  const image = prepare(sharp(bytes, { pages: -1 }));
  return { bytes: await rewriteEncoder(image, output).toBuffer(), format: output };
}

/** The image re-encoded from its pixels without metadata, turned upright (every page of a TIFF). */
export function stripImageMetadata(
  bytes: Buffer,
  format: FileFormat,
): Promise<{ bytes: Buffer; format: FileFormat }> {
  return reencoded(bytes, format, (image) => image.autoOrient());
}

/**
 * The image re-encoded from its pixels with its metadata (EXIF with its orientation, XMP, ICC;
 * a PNG's text chunks): the same picture, and nothing of the file that is not image or metadata.
 */
export async function rewriteImageKeepingMetadata(
  bytes: Buffer,
  format: FileFormat,
): Promise<{ bytes: Buffer; format: FileFormat }> {
  const { bytes: encoded, format: output } = await reencoded(bytes, format, (image) =>
    image.keepMetadata(),
  );
  return { bytes: output === 'png' ? withTextChunksOf(bytes, encoded) : encoded, format: output };
}
