/**
 * A document written back whole when none of its content was changed (nothing found). Never
 * the input's bytes: they may carry data no step read, such as a ZIP appended after a PDF's
 * `%%EOF` or an image's end marker. A PDF is saved by savePdfOutput; an image is re-encoded
 * from its pixels (JPEG at quality 95, the other formats lossless; a BMP as PNG).
 */
import type { Document, FileFormat, RasterPage } from './document.js';
import {
  encodeImageForOutput,
  rewriteImageKeepingMetadata,
  stripImageMetadata,
} from './metadata-strip.js';
import { savePdfOutput } from './pdf-output.js';

export interface Rewritten {
  readonly bytes: Buffer;
  readonly format: FileFormat;
}

/**
 * `keepMetadata`: an image's EXIF, XMP, ICC and PNG text ride along (a PDF's metadata is the
 * caller's to strip before); otherwise the image is written upright without metadata.
 */
export async function rewriteDocument(
  document: Document,
  options: { readonly keepMetadata: boolean },
): Promise<Rewritten> {
  if (document.pdf) return { bytes: savePdfOutput(document.pdf), format: 'pdf' };
  if (document.format === 'bmp') {
    // sharp cannot read a BMP (MuPDF decoded it at intake), and it holds no metadata.
    const pages = document.pages.filter((p): p is RasterPage => p.kind === 'raster');
    return { bytes: await encodeImageForOutput(pages, 'png'), format: 'png' };
  }
  return options.keepMetadata
    ? rewriteImageKeepingMetadata(document.bytes, document.format)
    : stripImageMetadata(document.bytes, document.format);
}
