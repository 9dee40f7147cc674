/** Decoded pixels, 8-bit sRGB, row-major, `channels` bytes per pixel. */
export interface RasterImage {
  readonly width: number;
  readonly height: number;
  readonly channels: 3 | 4;
  readonly pixels: Buffer;
}
