/**
 * The detector's input: a region of the page resized with sharp (libvips, off the JS thread) to
 * a size the DB network accepts, then normalised into a BGR, channels-first float tensor as
 * PaddleOCR trained it (OpenCV's BGR order, ImageNet mean and standard deviation).
 */
import sharp from 'sharp';
import type { RasterImage } from '../domain/raster.js';

export interface DetectionSizing {
  /** Longest side of the detector input for ordinary photos (PP-OCR's det_limit_side_len). */
  readonly maxSide: number;
  /** Big pages are not read below this scale, so small print keeps enough pixels... */
  readonly minScale: number;
  /** ...unless one detector input would exceed this many pixels. */
  readonly maxPixels: number;
}

/** A rectangle of page pixels. */
export interface Region {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

export interface DetectionInput {
  readonly data: Float32Array;
  readonly width: number;
  readonly height: number;
  /** Page pixels per detector pixel, horizontally and vertically... */
  readonly scaleX: number;
  readonly scaleY: number;
  /** ...and where the detector's origin lies on the page. */
  readonly left: number;
  readonly top: number;
}

/**
 * Detector scales (detector pixels per page pixel): `normal` fits the page in maxSide, `fine`
 * is what small print on a big page needs (equal to `normal` for photo-sized images).
 */
export function detectionScales(
  width: number,
  height: number,
  sizing: DetectionSizing,
): { normal: number; fine: number } {
  const normal = Math.min(1, sizing.maxSide / Math.max(width, height));
  const fine =
    normal >= sizing.minScale
      ? normal
      : Math.max(
          normal,
          Math.min(1, sizing.minScale, Math.sqrt(sizing.maxPixels / (width * height))),
        );
  return { normal, fine };
}

/** Detector size for a region at a scale: sides are multiples of 32, as the network's strides require. */
export function inputSize(region: Region, scale: number): { width: number; height: number } {
  const round = (v: number): number => Math.max(32, Math.round((v * scale) / 32) * 32);
  return { width: round(region.width), height: round(region.height) };
}

const MEAN = [0.485, 0.456, 0.406] as const;
const STD = [0.229, 0.224, 0.225] as const;

/**
 * Network channel c holds BGR channel c, normalised with PaddleOCR's per-channel constants: the
 * value for each byte, worked out once: the same float32 values as the sum done per pixel, and
 * one pass over the pixels instead of three (a 736 x 544 input in 1.8 ms instead of 2.5 ms).
 */
const NORMALISED = [0, 1, 2].map((c) => {
  const factor = 1 / (255 * (STD[c] as number));
  const shift = (MEAN[c] as number) / (STD[c] as number);
  return Float32Array.from({ length: 256 }, (_, v) => v * factor - shift);
}) as [Float32Array, Float32Array, Float32Array];

/**
 * Cuts, resizes and normalises a region of the image for the detector, into `data` when given
 * (3 x the input's width x height floats, every one written).
 */
export async function detectionInput(
  image: RasterImage,
  region: Region,
  scale: number,
  data?: Float32Array,
): Promise<DetectionInput> {
  const size = inputSize(region, scale);
  let pipeline = sharp(image.pixels, {
    raw: { width: image.width, height: image.height, channels: image.channels },
    limitInputPixels: false,
  });
  if (region.width !== image.width || region.height !== image.height) {
    pipeline = pipeline.extract(region);
  }
  // Transparent areas read as white paper, as in the recogniser's crops (crop.ts).
  if (image.channels === 4) pipeline = pipeline.flatten({ background: '#ffffff' });
  const rgb = await pipeline
    .resize(size.width, size.height, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer();
  const plane = size.width * size.height;
  if (data !== undefined && data.length !== plane * 3) {
    throw new Error('The detection input buffer does not fit the input size.');
  }
  data ??= new Float32Array(plane * 3);
  const [blue, green, red] = NORMALISED;
  for (let i = 0, at = 0; i < plane; i += 1, at += 3) {
    data[i] = blue[rgb[at + 2] as number] as number;
    data[plane + i] = green[rgb[at + 1] as number] as number;
    data[2 * plane + i] = red[rgb[at] as number] as number;
  }
  return {
    data,
    width: size.width,
    height: size.height,
    scaleX: region.width / size.width,
    scaleY: region.height / size.height,
    left: region.left,
    top: region.top,
  };
}
