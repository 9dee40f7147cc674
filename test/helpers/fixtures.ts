/**
 * Synthetic documents generated at test time (never real people's data): images in every
 * accepted format and PDFs with text, several pages or a password.
 */
import { mupdf } from '../../src/documents/mupdf.js';
import sharp from 'sharp';

export interface ImageSpec {
  readonly width?: number;
  readonly height?: number;
}

function canvas({ width = 64, height = 32 }: ImageSpec = {}) {
  // A left half red, right half blue: orientation can be checked from the pixels.
  const left = Buffer.alloc(Math.ceil(width / 2) * height * 3);
  for (let i = 0; i < left.length; i += 3) left[i] = 255;
  return sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 255 } } })
    .composite([
      {
        input: left,
        raw: { width: Math.ceil(width / 2), height, channels: 3 },
        left: 0,
        top: 0,
      },
    ])
    .removeAlpha()
    .png()
    .toBuffer()
    .then((png) => sharp(png));
}

export async function jpeg(spec?: ImageSpec, orientation?: number): Promise<Buffer> {
  const image = (await canvas(spec)).jpeg({ quality: 90 });
  return orientation ? image.withMetadata({ orientation }).toBuffer() : image.toBuffer();
}

export const png = async (spec?: ImageSpec) => (await canvas(spec)).png().toBuffer();
export const webp = async (spec?: ImageSpec) => (await canvas(spec)).webp().toBuffer();
export const tiff = async (spec?: ImageSpec) => (await canvas(spec)).tiff().toBuffer();

/** RGB pixels (3 channels, rows top down) as a 24-bit BMP, written by hand: sharp has no BMP encoder. */
export function encodeBmp(rgb: Buffer, width: number, height: number): Buffer {
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const file = Buffer.alloc(54 + rowSize * height);
  file.write('BM', 0, 'ascii');
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(54, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(width, 18);
  file.writeInt32LE(-height, 22); // negative: rows top down
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(24, 28);
  file.writeUInt32LE(rowSize * height, 34);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const from = (y * width + x) * 3;
      const to = 54 + y * rowSize + x * 3;
      file[to] = rgb[from + 2] ?? 0;
      file[to + 1] = rgb[from + 1] ?? 0;
      file[to + 2] = rgb[from] ?? 0;
    }
  }
  return file;
}

/** A 24-bit BMP, written by hand: sharp cannot encode BMP. */
export function bmp(width = 8, height = 4): Buffer {
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const pixelBytes = rowSize * height;
  const file = Buffer.alloc(54 + pixelBytes);
  file.write('BM', 0, 'ascii');
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(54, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(width, 18);
  file.writeInt32LE(height, 22);
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(24, 28);
  file.writeUInt32LE(pixelBytes, 34);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = 54 + y * rowSize + x * 3;
      file[at + 2] = x < width / 2 ? 255 : 0; // BGR order: red left, blue right
      file[at] = x < width / 2 ? 0 : 255;
    }
  }
  return file;
}

export interface PdfSpec {
  readonly pages?: number;
  readonly text?: string;
  readonly userPassword?: string;
  readonly ownerPassword?: string;
}

export function pdf({
  pages = 1,
  text = 'Synthetic page',
  userPassword,
  ownerPassword,
}: PdfSpec = {}): Buffer {
  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font('Helvetica'));
  for (let i = 0; i < pages; i += 1) {
    const resources = doc.addObject({ Font: { F1: font } });
    const contents = `BT /F1 18 Tf 72 720 Td (${text} ${i + 1}) Tj ET`;
    const page = doc.addPage([0, 0, 595, 842], 0, resources, contents);
    doc.insertPage(-1, page);
  }
  const options = ['garbage'];
  if (userPassword !== undefined || ownerPassword !== undefined) {
    options.push('encrypt=aes-256');
    if (userPassword !== undefined) options.push(`user-password=${userPassword}`);
    options.push(`owner-password=${ownerPassword ?? 'owner-secret'}`);
  }
  const buffer = doc.saveToBuffer(options.join(','));
  const bytes = Buffer.from(buffer.asUint8Array());
  buffer.destroy();
  doc.destroy();
  return bytes;
}

export interface PdfLine {
  readonly text: string;
  readonly x: number;
  /** Baseline, in PDF points from the bottom of an A4 page (595 x 842). */
  readonly y: number;
  readonly size?: number;
}

/** An A4 PDF with the given text lines on each page, in Helvetica, as real PDF text. */
export function pdfWithLines(pages: readonly (readonly PdfLine[])[]): Buffer {
  return pdfWithContents(
    pages.map((lines) =>
      lines.map((l) => `BT /F1 ${l.size ?? 14} Tf ${l.x} ${l.y} Td (${l.text}) Tj ET`).join('\n'),
    ),
  );
}

/** An A4 PDF whose pages draw the given content streams, with Helvetica as font F1. */
export function pdfWithContents(pages: readonly string[]): Buffer {
  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font('Helvetica'));
  for (const contents of pages) {
    const resources = doc.addObject({ Font: { F1: font } });
    doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, contents));
  }
  const buffer = doc.saveToBuffer('garbage');
  const bytes = Buffer.from(buffer.asUint8Array());
  buffer.destroy();
  doc.destroy();
  return bytes;
}
