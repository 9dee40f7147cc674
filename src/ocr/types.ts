/**
 * The read step's output: text with a quadrilateral per character, so that later steps can
 * cover exactly the characters they choose (for example the first eight digits of twelve).
 */

export interface Point {
  readonly x: number;
  readonly y: number;
}

/**
 * Four corners in reading order: top-left, top-right, bottom-right, bottom-left *of the text as
 * read*. For text rotated on the page the corners rotate with it: for text running top to
 * bottom (orientation 90) the "top-left" corner is the page's top-right of the glyph box.
 */
export type Quad = readonly [Point, Point, Point, Point];

/** Clockwise rotation of the text on the page: 0 upright, 90 reads top to bottom, 180 upside down, 270 reads bottom to top. */
export type Orientation = 0 | 90 | 180 | 270;

export interface TextChar {
  /** One recognised symbol (one dictionary entry of the recogniser, or one PDF glyph). */
  readonly text: string;
  readonly quad: Quad;
  readonly confidence: number;
}

export interface TextLine {
  /** Always equal to `chars.map((c) => c.text).join('')`. Spaces between words are chars too. */
  readonly text: string;
  readonly chars: readonly TextChar[];
  readonly quad: Quad;
  /** Mean recognition confidence, 0..1 (1 for a PDF text layer). */
  readonly confidence: number;
  readonly orientation: Orientation;
}

export interface PageText {
  /** 0-based page index in the document. */
  readonly page: number;
  /** Size of the coordinate space of the quads: image pixels, or PDF points. */
  readonly width: number;
  readonly height: number;
  readonly unit: 'px' | 'pt';
  readonly source: 'ocr' | 'pdf';
  readonly lines: readonly TextLine[];
}

export interface TextLayer {
  readonly pages: readonly PageText[];
}

/** Decoded pixels, 8-bit sRGB, row-major, `channels` bytes per pixel. */
export interface RasterImage {
  readonly width: number;
  readonly height: number;
  readonly channels: 3 | 4;
  readonly pixels: Buffer;
}

/**
 * What a reading is for. `numbers`: only digit runs matter (masking Aadhaar numbers), so lines
 * may be read from a horizontally squeezed crop, which is faster and reads digits as well;
 * `text` (the default): names and addresses too, read at the text's own aspect, since the
 * squeeze measurably drops letters of small print (capitals at word starts in a photo);
 * `document`: everything printed on the pages of a document (letters, statements, forms), read
 * as `text` is, with the detector given more pixels (DetectionSettings.documentMinScale) so
 * that thin small print on a low-resolution scan is found.
 */
export type ReadPurpose = 'numbers' | 'text' | 'document';

export interface OcrEngine {
  /** Reads every line of text on the image, at 0, 90, 180 and 270 degrees. */
  read(image: RasterImage, page: number, purpose?: ReadPurpose): Promise<PageText>;
  /** Releases the models' native memory. */
  close(): Promise<void>;
}
