/** Names and headers of returned files. */
import path from 'node:path';
import { EXTENSIONS, MIME_TYPES, type WrittenFormat } from '../documents/writers.js';

/** The client's file name without its extension, made safe for a header and a ZIP entry. */
export function safeBaseName(filename: string, fallback = 'document'): string {
  const base = path.basename(filename.replace(/\\/g, '/'), path.extname(filename));
  const cleaned = base
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._ -]/gu, '_')
    .replace(/\s+/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 100);
  return cleaned === '' ? fallback : cleaned;
}

export function outputName(filename: string, format: WrittenFormat, suffix: string): string {
  return `${safeBaseName(filename)}${suffix}.${EXTENSIONS[format]}`;
}

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266, RFC 5987). */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function contentType(format: WrittenFormat): string {
  return MIME_TYPES[format];
}
