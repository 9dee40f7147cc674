/**
 * A box of a page with its thin strokes taken out, for a second reading of a bold number that a
 * pen line, a signature or a stamp's outline crossed on a greyscale copy, where colour cannot
 * tell the pen from the print (print-ink.ts does that on colour pages). A grey morphological
 * opening (the ink eroded, then grown back by the same radius) removes every stroke thinner than
 * twice the radius and gives the wider strokes back at their own size: with the radius under
 * half a bold digit's stroke, the digits stay and the ballpoint goes.
 */
import sharp from 'sharp';
import { boxPixels, boxSize, type PixelBox } from '../documents/scaled-region.js';
import type { RasterImage } from '../domain/raster.js';

/**
 * The opening's radius for digits printed at `pitch` pixels from one to the next: a bold
 * digit's stroke is about a sixth of the pitch (measured: 8 px at a 32 px pitch on a 300 dpi
 * copy, 5 px at 22 px on a 200 dpi one), a ballpoint line 2 to 4 px at those resolutions.
 */
export const thinStrokeRadius = (pitch: number): number => Math.max(1, Math.round(pitch / 15));

/** The box's pixels without strokes thinner than `2 * radius`; null when too small. */
export async function withoutThinStrokes(
  raster: RasterImage,
  box: PixelBox,
  radius: number,
): Promise<RasterImage | null> {
  const { width, height } = boxSize(box);
  if (width <= 4 * radius || height <= 4 * radius) return null;
  // Channel by channel (a copy's channels are equal; on a colour page each is opened alike).
  // sharp's erode shrinks the dark ink, dilate grows it back; two pipelines, since sharp runs
  // the operations of one in its own fixed order (dilate first), which would close, not open.
  const eroded = await boxPixels(raster, box)
    .erode(radius)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { data, info } = await sharp(eroded.data, { raw: eroded.info })
    .dilate(radius)
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3 && info.channels !== 4) throw new Error('unexpected channel count');
  return { width: info.width, height: info.height, channels: info.channels, pixels: data };
}
