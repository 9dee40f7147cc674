/** The OCR engine's interface: what a reading is for, and the engine that reads a page. */
import type { ReadingFrame } from '../domain/geometry.js';
import type { PageText } from '../domain/text-layer.js';
import type { RasterImage } from '../domain/raster.js';

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

/** What the caller already knows about the image, so that the engine can do less. */
export interface ReadHints {
  /**
   * false: no text on the image runs up or down it (a crop around a line read across the page),
   * so the second detection pass over the image turned a quarter (sideways.ts) is not needed.
   */
  readonly sideways?: boolean;
  /**
   * The lines are known (where an earlier reading of the same pixels found them): each frame is
   * read as it is, in its own orientation, with no detection pass and no direction decision.
   * The reading then holds one line per frame, in their order, whatever its confidence (no
   * characters where nothing reads).
   */
  readonly lines?: readonly ReadingFrame[];
}

export interface OcrEngine {
  /** Reads every line of text on the image, at 0, 90, 180 and 270 degrees. */
  read(
    image: RasterImage,
    page: number,
    purpose?: ReadPurpose,
    hints?: ReadHints,
  ): Promise<PageText>;
  /** Releases the models' native memory. */
  close(): Promise<void>;
}
