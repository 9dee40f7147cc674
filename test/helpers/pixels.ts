/** Pixel measures the redaction tests share. */
import sharp from 'sharp';
import type { RasterImage } from '../../src/domain/raster.js';

export interface BoxLike {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** Share of the pixels inside the box (its units times `scale`) that are near black. */
export function blackShare(image: RasterImage, box: BoxLike, scale: number): number {
  let inside = 0;
  let black = 0;
  const { channels } = image;
  for (let y = Math.ceil(box.y0 * scale); y < Math.floor(box.y1 * scale); y += 1) {
    for (let x = Math.ceil(box.x0 * scale); x < Math.floor(box.x1 * scale); x += 1) {
      const at = (y * image.width + x) * channels;
      inside += 1;
      const max = Math.max(
        image.pixels[at] ?? 255,
        image.pixels[at + 1] ?? 255,
        image.pixels[at + 2] ?? 255,
      );
      if (max < 70) black += 1;
    }
  }
  return inside === 0 ? 0 : black / inside;
}

/** Whether two image files decode to the same size, channels and pixel values. */
export async function samePixels(a: Buffer, b: Buffer): Promise<boolean> {
  const [p, q] = await Promise.all(
    [a, b].map((bytes) => sharp(bytes).raw().toBuffer({ resolveWithObject: true })),
  );
  if (!p || !q) return false;
  return (
    p.info.width === q.info.width &&
    p.info.height === q.info.height &&
    p.info.channels === q.info.channels &&
    p.data.equals(q.data)
  );
}

/** An image file's pixels as RGB, without alpha. */
export async function decodeRgb(bytes: Buffer): Promise<RasterImage> {
  const { data, info } = await sharp(bytes)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, pixels: data };
}
