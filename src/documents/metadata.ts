/**
 * Which metadata a file carries (the detect report's `metadata_present`): names only, never
 * values. PDFs: the keys of the document information dictionary that hold something
 * (`author`, `producer`, `creation_date`...), and `xmp` for an XMP stream. Images: `exif`,
 * `gps` (an EXIF GPS directory), `xmp`, `iptc`, `icc` and `png_text` (tEXt/iTXt/zTXt chunks),
 * as sharp reports them. A BMP has none.
 */
import sharp from 'sharp';
import type { Document } from './document.js';
import type { mupdf as MuPdf } from './mupdf.js';

/** `CreationDate` -> `creation_date`. */
const snake = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase();

function pdfMetadata(pdf: MuPdf.PDFDocument): string[] {
  const keys: string[] = [];
  const trailer = pdf.getTrailer();
  // MuPDF's null object cannot be resolved: look before resolving.
  const resolved = (object: MuPdf.PDFObject) => (object.isNull() ? null : object.resolve());
  const info = resolved(trailer.get('Info'));
  if (info?.isDictionary()) {
    info.forEach((value, key) => {
      const entry = resolved(value);
      const empty = entry === null || (entry.isString() && entry.asString().trim() === '');
      if (!empty) keys.push(snake(String(key)));
    });
  }
  const root = resolved(trailer.get('Root'));
  if (root && !root.get('Metadata').isNull()) keys.push('xmp');
  return keys;
}

/**
 * Whether IFD0 of an EXIF block points at a GPS directory (tag 0x8825). Hand-read: sharp hands
 * EXIF over as raw bytes, and this one tag is all the report needs of it.
 */
export function exifHasGps(exif: Buffer): boolean {
  const start = exif.subarray(0, 6).toString('latin1') === 'Exif\u0000\u0000' ? 6 : 0;
  const tiff = exif.subarray(start);
  if (tiff.length < 8) return false;
  const order = tiff.subarray(0, 2).toString('latin1');
  if (order !== 'II' && order !== 'MM') return false;
  const little = order === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return false;
  const count = u16(ifd);
  for (let i = 0; i < count; i += 1) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return false;
    if (u16(entry) === 0x8825) return true;
  }
  return false;
}

async function imageMetadata(bytes: Buffer): Promise<string[]> {
  const meta = await sharp(bytes, { pages: 1 }).metadata();
  const keys: string[] = [];
  if (meta.exif && meta.exif.length > 0) {
    keys.push('exif');
    if (exifHasGps(meta.exif)) keys.push('gps');
  }
  if (meta.xmp && meta.xmp.length > 0) keys.push('xmp');
  if (meta.iptc && meta.iptc.length > 0) keys.push('iptc');
  if (meta.icc && meta.icc.length > 0) keys.push('icc');
  if (meta.comments && meta.comments.length > 0) keys.push('png_text');
  return keys;
}

export async function metadataPresent(document: Document): Promise<string[]> {
  // A BMP holds pixels and a header, no metadata block (and sharp cannot open one).
  if (document.format === 'bmp') return [];
  const keys = document.pdf ? pdfMetadata(document.pdf) : await imageMetadata(document.bytes);
  return [...new Set(keys)];
}
