/**
 * Names and headers of returned files. A download's name is derived from the client's file
 * name but never trusted: it becomes a header value and a ZIP entry name, where a path, a
 * quote or a line break would be an attack on whoever saves the file.
 */
import { EXTENSIONS, MIME_TYPES, type WrittenFormat } from '../domain/formats.js';

/** Percent-decoding rounds: `%252F` is `%2F` after one and `/` after two. */
const DECODE_ROUNDS = 3;
/** Characters of the base name kept at most (code points). */
const MAX_BASE_LENGTH = 100;

/** One round of percent-decoding; a malformed sequence leaves the rest to the ASCII escapes. */
function decodeOnce(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
  }
}

function percentDecoded(text: string): string {
  let current = text;
  for (let round = 0; round < DECODE_ROUNDS; round += 1) {
    const next = decodeOnce(current);
    if (next === current) break;
    current = next;
  }
  return current;
}

/** Dots, underscores and hyphens are not kept at either end (no hidden file, no option). */
const trimEnds = (text: string) => text.replace(/^[._-]+|[._-]+$/gu, '');

/**
 * The client's file name reduced to a safe base name, without its extension: percent-decoded
 * (up to three rounds), NFKC-normalised (a full-width solidus becomes `/` before the split),
 * the last path segment (separators `/` and `\`), control and format characters removed
 * (line breaks, NUL, bidirectional overrides), its extension dropped, every run of characters
 * other than letters, combining marks, digits, `.`, `_` and `-` made one `_`, runs of dots
 * made one, trimmed of `.`, `_` and `-` at either end, at most 100 characters; `fallback` when
 * nothing is left. Letters of any script are kept (the ASCII `filename=` replaces them).
 */
export function safeBaseName(filename: string, fallback = 'document'): string {
  const segments = percentDecoded(filename).normalize('NFKC').split(/[/\\]/);
  const last = segments.filter((s) => s !== '').at(-1) ?? '';
  const visible = last.replace(/[\p{Cc}\p{Cf}]/gu, '');
  const stem = visible.replace(/(?<=[^.])\.[^.]*$/u, '');
  const cleaned = trimEnds(
    stem
      .replace(/[^\p{L}\p{M}\p{N}._-]+/gu, '_')
      .replace(/\.{2,}/g, '.')
      .replace(/_{2,}/g, '_'),
  );
  const bounded = trimEnds(Array.from(cleaned).slice(0, MAX_BASE_LENGTH).join(''));
  return bounded === '' ? fallback : bounded;
}

/** The download name: the safe base name, the suffix, and the extension of the output itself. */
export function outputName(filename: string, format: WrittenFormat, suffix: string): string {
  return `${safeBaseName(filename)}${suffix}.${EXTENSIONS[format]}`;
}

/**
 * `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266, RFC 5987). `name` comes
 * from outputName; the replacements here keep the header safe for any other name too.
 */
export function contentDisposition(name: string): string {
  const ascii = name
    .replace(/[^\x20-\x7e]+/g, '_')
    .replace(/["\\/;]/g, '_')
    .replace(/_{2,}/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function contentType(format: WrittenFormat): string {
  return MIME_TYPES[format];
}
