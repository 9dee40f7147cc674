/**
 * File type by magic bytes, never by name or declared content type. Six signatures are all we
 * accept, so they are checked here directly rather than through a general detector; the
 * decoders (sharp, MuPDF) then prove the rest of the structure.
 */
import type { FileFormat } from './document.js';

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length &&
  signature.every((value, i) => bytes[offset + i] === value);

const ascii = (text: string): number[] => Array.from(Buffer.from(text, 'ascii'));

/** PDF readers accept the header anywhere in the first 1024 bytes; so do we. */
function findPdfHeader(bytes: Uint8Array): boolean {
  const header = Buffer.from('%PDF-');
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).includes(header);
}

export function sniffFormat(bytes: Uint8Array): FileFormat | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) {
    return 'tiff';
  }
  if (startsWith(bytes, ascii('BM')) && bytes.length >= 26) return 'bmp';
  if (findPdfHeader(bytes)) return 'pdf';
  return null;
}

/**
 * Whether the file ends the way its format says a complete file ends. Used to tell a
 * truncated upload from a corrupt one once decoding has failed, and for PDFs, whose readers
 * would otherwise silently rebuild a cut-off file with pages missing.
 */
export function endsCompletely(format: FileFormat, bytes: Buffer): boolean {
  const tail = (n: number) => bytes.subarray(Math.max(0, bytes.length - n));
  switch (format) {
    case 'jpeg':
      return tail(1024).includes(Buffer.from([0xff, 0xd9]));
    case 'png':
      return tail(64).includes(Buffer.from('IEND'));
    case 'pdf':
      return tail(1024).includes(Buffer.from('%%EOF'));
    case 'webp':
      return bytes.length >= 12 && bytes.readUInt32LE(4) + 8 <= bytes.length;
    case 'bmp':
      return bytes.length >= 6 && bytes.readUInt32LE(2) <= bytes.length;
    case 'tiff':
      return true;
  }
}
