/**
 * The document model every pipeline step shares: what intake yields and the later steps
 * (read, find, apply, write) consume.
 */
import { GLOBAL_INPUTS, INDIAN_INPUTS, type WrittenFormat } from '../domain/formats.js';
import type { mupdf } from './mupdf.js';

export type FileFormat = WrittenFormat;

/** The formats the Indian endpoints accept. */
export const INDIAN_FORMATS: ReadonlySet<FileFormat> = new Set(INDIAN_INPUTS);
/** The formats the global endpoints accept. */
export const GLOBAL_FORMATS: ReadonlySet<FileFormat> = new Set(GLOBAL_INPUTS);

/** A decoded image page: upright (EXIF orientation applied), 8-bit sRGB, 3 or 4 channels. */
export interface RasterPage {
  readonly kind: 'raster';
  readonly index: number;
  readonly width: number;
  readonly height: number;
  readonly channels: 3 | 4;
  readonly pixels: Buffer;
  /** True when the file asked for a rotation or flip (EXIF orientation other than 1). */
  readonly reoriented: boolean;
}

/** A PDF page; its content is read from `Document.pdf`. Sizes are in PDF points. */
export interface PdfPage {
  readonly kind: 'pdf';
  readonly index: number;
  readonly width: number;
  readonly height: number;
}

export type Page = RasterPage | PdfPage;

export interface Document {
  readonly filename: string;
  readonly format: FileFormat;
  readonly bytes: Buffer;
  readonly pages: readonly Page[];
  /** The opened (and, if it was encrypted, authenticated) PDF; null for images. */
  readonly pdf: mupdf.PDFDocument | null;
  /** Releases native memory held for the document. Safe to call twice. */
  dispose(): void;
}
