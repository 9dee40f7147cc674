/**
 * The read step's output: text with a quadrilateral per character, so that later steps can
 * cover exactly the characters they choose (for example the first eight digits of twelve).
 */
import type { Orientation, Quad } from './geometry.js';

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
