/**
 * Partial cover (masking): a card number's covered characters blacked out and the rest left
 * readable, the one place that says which: an Aadhaar number's first eight digits (the last four
 * stay), a PAN's characters 2 to 8. The cover reaches only to the ink gaps beside the readable
 * characters; its image and PDF forms are box's (a black fill, true removal from a PDF's text).
 */
import type { Quad } from '../../domain/geometry.js';
import type { RasterImage } from '../../domain/raster.js';
import { AADHAAR_MASKED_DIGITS } from '../../identifiers/in/aadhaar.js';
import { PAN_MASKED_FROM, PAN_MASKED_TO } from '../../identifiers/in/pan.js';
import { spanQuad } from '../geometry.js';
import { inkGap } from '../ink-gap.js';
import { box } from './box.js';
import type { Operator, PdfForm } from './types.js';

/** The characters of a value a partial cover hides, 0-based and inclusive. */
export interface CoveredSpan {
  readonly first: number;
  readonly last: number;
}

/** UIDAI's masked Aadhaar: the first eight of the twelve digits covered, the last four not. */
export const AADHAAR_COVERED: CoveredSpan = { first: 0, last: AADHAAR_MASKED_DIGITS - 1 };
/** A PAN's first two characters and its last stay readable (`AB*******F`). */
export const PAN_COVERED: CoveredSpan = { first: PAN_MASKED_FROM, last: PAN_MASKED_TO };

export interface PartialRegion {
  /** The cover, in the units of the characters' boxes. */
  readonly quad: Quad;
  /** The covered characters' own extent (no margin), by which a second reading is known. */
  readonly core: Quad;
  /** The boxes of the characters that stay readable, which no other cover may reach. */
  readonly visible: readonly Quad[];
  /** The covered characters of the value: what must not be read again. */
  readonly hidden: string;
}

/**
 * The cover of `span` of `value`, whose characters `chars` boxes. OCR's boxes are estimates:
 * given the `raster` they were read from, the cover is cut where the pixels show the gaps to
 * the characters that stay readable on either side.
 */
function regionOf(
  value: string,
  chars: readonly Quad[],
  { first, last }: CoveredSpan,
  raster?: RasterImage,
): PartialRegion {
  const gap = (a: number, b: number, cover: 'left' | 'right') => {
    const [left, right] = [chars[a], chars[b]];
    return raster && left && right ? inkGap(raster, left, right, cover) : null;
  };
  const quad = spanQuad(
    chars,
    first,
    last,
    0.15,
    gap(last, last + 1, 'left'),
    gap(first - 1, first, 'right'),
  );
  const visible = chars.filter((_, i) => i < first || i > last);
  const core = spanQuad(chars, first, last, 0);
  return { quad, core, visible, hidden: value.slice(first, last + 1) };
}

interface PartialCoverOperator extends Operator<Quad> {
  readonly pdf: PdfForm<Quad>;
  readonly region: typeof regionOf;
}

export const partialCover: PartialCoverOperator = {
  image: box.image,
  pdf: box.pdf,
  region: regionOf,
};
