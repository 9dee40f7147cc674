/**
 * A box of a raster cut out and resized, for a second reading of one part of a page: the
 * re-read after covering (enlarged, to read at another scale) and the PAN line read again
 * stretched along its length (so that a doubled letter reaches the recogniser as two).
 */
import sharp, { type Sharp } from 'sharp';
import type { RasterImage } from '../domain/raster.js';

/** A box in whole pixels of a raster. */
export interface PixelBox {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** `bounds` grown by `margin` on every side, in whole pixels, clipped to the raster. */
export function pixelBoxAround(
  raster: RasterImage,
  bounds: { readonly x0: number; readonly y0: number; readonly x1: number; readonly y1: number },
  margin: number,
): PixelBox {
  return {
    x0: Math.max(0, Math.floor(bounds.x0 - margin)),
    y0: Math.max(0, Math.floor(bounds.y0 - margin)),
    x1: Math.min(raster.width, Math.ceil(bounds.x1 + margin)),
    y1: Math.min(raster.height, Math.ceil(bounds.y1 + margin)),
  };
}

/** The box's width and height in pixels. */
export function boxSize(box: PixelBox): { readonly width: number; readonly height: number } {
  return { width: box.x1 - box.x0, height: box.y1 - box.y0 };
}

/** A sharp pipeline over the box's pixels of `raster` (for a second reading of that part). */
export function boxPixels(raster: RasterImage, box: PixelBox): Sharp {
  const raw = { width: raster.width, height: raster.height, channels: raster.channels };
  return sharp(raster.pixels, { raw }).extract({ left: box.x0, top: box.y0, ...boxSize(box) });
}

/**
 * The box's pixels scaled `scaleX` times across and `scaleY` times down; null when the box
 * holds too few pixels to read.
 */
export async function scaledRegion(
  raster: RasterImage,
  box: PixelBox,
  scaleX: number,
  scaleY: number,
): Promise<RasterImage | null> {
  const { width, height } = boxSize(box);
  if (width < 2 || height < 2) return null;
  const { channels } = raster;
  const { data, info } = await boxPixels(raster, box)
    .resize(Math.round(width * scaleX), Math.round(height * scaleY), {
      fit: 'fill',
      kernel: 'cubic',
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels, pixels: data };
}
