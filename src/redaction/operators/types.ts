/**
 * What a redaction operator is: one way of taking a value out of a page, with an image form (a
 * copy of the pixels with its regions changed), a PDF form (the page changed in place, saved by
 * the caller) and, for the operators that put something in the value's place, a text form.
 * One module per operator; by-mode.ts picks the operator of a global mode.
 */
import type { mupdf } from '../../documents/mupdf.js';
import type { Quad } from '../../domain/geometry.js';
import type { RasterImage } from '../../domain/raster.js';
import type { GlobalRule } from '../../identifiers/global-rule.js';
import type { StandIns } from '../stand-ins.js';
import type { BoxSource } from '../text-placement.js';

/** The global modes, in the order the API lists them. */
export const MODES = ['box', 'blur', 'mask', 'token', 'pseudonym'] as const;
export type Mode = (typeof MODES)[number];
/** The modes with a text form: all but blur, which only changes pixels. */
export type TextMode = Exclude<Mode, 'blur'>;

/** A copy of `image` with every region changed; the input is untouched. */
export type ImageForm<R> = (image: RasterImage, regions: readonly R[]) => RasterImage;
/** Page `index` of the PDF changed under every region, in page units (points, top left). */
export type PdfForm<R> = (pdf: mupdf.PDFDocument, index: number, regions: readonly R[]) => void;

export interface Operator<R> {
  readonly image: ImageForm<R>;
  /** Null: the operator has no PDF form. */
  readonly pdf: PdfForm<R> | null;
}

/** What a text form may draw on: the value's rule (pseudonyms), `mask_keep`, the stand-ins. */
export interface ReplaceContext {
  readonly rule: GlobalRule | undefined;
  readonly maskKeep: number;
  readonly standIns: StandIns;
}

/** What goes in place of a value (compacted, with its type) printed as `raw`. */
export type TextForm = (
  found: { readonly type: string; readonly value: string },
  raw: string,
  context: ReplaceContext,
) => string;

export interface TextOperator<R> extends Operator<R> {
  readonly pdf: PdfForm<R>;
  readonly text: TextForm;
}

/** A value's region with the replacement drawn on it (mask, token, pseudonym). */
export interface Replacement {
  /** The cover, in page units (PDF points or image pixels, origin top left). */
  readonly quad: Quad;
  /** The replaced characters' own box (no margin): the line the drawn text takes. */
  readonly textQuad: Quad;
  /** Who boxed them: a PDF's text layer or OCR. */
  readonly source: BoxSource;
  /** Drawn in place; '' leaves the cover blank (the rest of a value broken over two lines). */
  readonly text: string;
}
