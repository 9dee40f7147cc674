/**
 * The chain of a TIFF's image file directories (IFDs), walked before a pixel is decoded. libtiff
 * (inside sharp) stops quietly at a chain that loops back on itself and serves the pages it met
 * once; a file built that way is malformed, possibly on purpose, and is refused with its own
 * code rather than half-read. Written by hand: no library we use exposes the raw chain, and the
 * walk reads only the header, each IFD's entry count and its next-IFD offset.
 */
import { DocumentError } from '../domain/errors.js';

interface Layout {
  readonly littleEndian: boolean;
  readonly big: boolean;
}

function layoutOf(bytes: Buffer): Layout | undefined {
  const order = bytes.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return undefined;
  const littleEndian = order === 'II';
  const magic = littleEndian ? bytes.readUInt16LE(2) : bytes.readUInt16BE(2);
  if (magic === 42) return { littleEndian, big: false };
  if (magic === 43) return { littleEndian, big: true };
  return undefined;
}

function offsetAt(bytes: Buffer, at: number, layout: Layout): number {
  if (layout.big) {
    const value = layout.littleEndian ? bytes.readBigUInt64LE(at) : bytes.readBigUInt64BE(at);
    return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
  }
  return layout.littleEndian ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at);
}

function countAt(bytes: Buffer, at: number, layout: Layout): number {
  if (layout.big) return offsetAt(bytes, at, layout);
  return layout.littleEndian ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at);
}

function broken(reason: string): DocumentError {
  return new DocumentError('corrupt_file', `The TIFF file's page directory ${reason}.`);
}

function cutOff(): DocumentError {
  return new DocumentError(
    'truncated_file',
    'The TIFF file ends inside its page directory; it looks truncated.',
  );
}

/**
 * The number of pages (IFDs) on the TIFF's main chain. Throws `tiff_ifd_loop` when the chain
 * comes back to a directory it has passed, `truncated_file` when a directory lies past the end.
 * A file that is not a TIFF at all is left to the decoder (0 is returned).
 */
export function tiffPageCount(bytes: Buffer, maxPages: number): number {
  if (bytes.length < 8) return 0;
  const layout = layoutOf(bytes);
  if (!layout) return 0;
  const headerSize = layout.big ? 16 : 8;
  if (bytes.length < headerSize) throw cutOff();
  const entrySize = layout.big ? 20 : 12;
  const countSize = layout.big ? 8 : 2;
  const offsetSize = layout.big ? 8 : 4;
  const seen = new Set<number>();
  let at = offsetAt(bytes, layout.big ? 8 : 4, layout);
  while (at !== 0) {
    if (seen.has(at)) {
      throw new DocumentError(
        'tiff_ifd_loop',
        "The TIFF file's chain of page directories loops back to a page it has already passed.",
      );
    }
    if (at < headerSize) throw broken('points into the file header');
    if (at + countSize > bytes.length) throw cutOff();
    seen.add(at);
    // Every page counts against the limit before the walk goes on: a chain of a million tiny
    // directories stops here, not after a million reads.
    if (seen.size > maxPages) return seen.size;
    const entries = countAt(bytes, at, layout);
    const next = at + countSize + entries * entrySize;
    if (next + offsetSize > bytes.length) throw cutOff();
    at = offsetAt(bytes, next, layout);
  }
  return seen.size;
}
