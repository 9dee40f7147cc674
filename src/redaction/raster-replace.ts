/**
 * The image operators of the global modes beyond `box` (raster.ts): `blur`, and covering a
 * value with its replacement drawn in place (mask, token, pseudonym). Both return a copy; the
 * input is left untouched. Text is drawn by MuPDF with its built-in Helvetica, so no system
 * font is needed.
 */
import { mupdf } from '../documents/mupdf.js';
import type { Quad } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';
import { boundsOf } from './geometry.js';
import { coverQuads } from './raster.js';
import {
  advanceInEms,
  placeReplacement,
  placementMatrix,
  type BoxSource,
} from './text-placement.js';

interface Box {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

function pixelBox(image: RasterImage, quad: Quad): Box {
  const b = boundsOf(quad);
  return {
    x0: Math.max(0, Math.floor(b.x0)),
    y0: Math.max(0, Math.floor(b.y0)),
    x1: Math.min(image.width, Math.ceil(b.x1)),
    y1: Math.min(image.height, Math.ceil(b.y1)),
  };
}

/**
 * Each quad's box pixelated into blocks half the box's height and then smoothed: a blur whose
 * information is gone. A Gaussian alone can be partly undone (deconvolution, or matching blurred
 * renderings of candidate values); averaging whole blocks of the size of a character's strokes
 * leaves nothing of the characters to recover.
 */
export function blurQuads(image: RasterImage, quads: readonly Quad[]): RasterImage {
  const pixels = Buffer.from(image.pixels);
  const { width, channels } = image;
  for (const quad of quads) {
    const box = pixelBox(image, quad);
    const block = Math.max(4, Math.ceil((box.y1 - box.y0) / 2));
    for (let by = box.y0; by < box.y1; by += block) {
      for (let bx = box.x0; bx < box.x1; bx += block) {
        const ey = Math.min(box.y1, by + block);
        const ex = Math.min(box.x1, bx + block);
        const sum = [0, 0, 0];
        for (let y = by; y < ey; y += 1) {
          for (let x = bx; x < ex; x += 1) {
            const at = (y * width + x) * channels;
            for (let c = 0; c < 3; c += 1) sum[c] = (sum[c] ?? 0) + (pixels[at + c] ?? 0);
          }
        }
        const n = Math.max(1, (ey - by) * (ex - bx));
        for (let y = by; y < ey; y += 1) {
          for (let x = bx; x < ex; x += 1) {
            const at = (y * width + x) * channels;
            for (let c = 0; c < 3; c += 1) pixels[at + c] = Math.round((sum[c] ?? 0) / n);
          }
        }
      }
    }
  }
  return { ...image, pixels };
}

/** A value's cover and what is drawn on it. */
export interface RasterReplacement {
  /** The cover, filled white. */
  readonly quad: Quad;
  /** The replaced characters' own box, which the drawn text takes its line from (placement). */
  readonly textQuad: Quad;
  /** Who boxed them: a PDF's text layer or OCR. */
  readonly source: BoxSource;
  /** Drawn in black; '' leaves the white cover (the rest of a value broken over two lines). */
  readonly text: string;
}

/**
 * Each cover filled white with its text drawn in black on the replaced text's baseline, at its
 * angle and size (text-placement.ts).
 */
export function replaceQuads(
  image: RasterImage,
  replacements: readonly RasterReplacement[],
): RasterImage {
  const covered = coverQuads(
    image,
    replacements.map((r) => r.quad),
    [255, 255, 255],
  );
  const drawn = replacements.filter((r) => r.text !== '');
  if (drawn.length === 0) return covered;
  const { width, height, channels } = covered;
  const alpha = channels === 4;
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, width, height], alpha);
  const font = new mupdf.Font('Helvetica');
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pixmap);
  try {
    // MuPDF's pixmap rows may be padded: copy row by row.
    const stride = pixmap.getStride();
    const target = pixmap.getPixels();
    const row = width * channels;
    for (let y = 0; y < height; y += 1) {
      target.set(covered.pixels.subarray(y * row, (y + 1) * row), y * stride);
    }
    for (const { quad, textQuad, source, text } of drawn) {
      const place = placeReplacement(textQuad, source, advanceInEms(font, text), quad);
      const run = new mupdf.Text();
      run.showString(font, placementMatrix(place), text);
      device.fillText(run, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, [0, 0, 0], 1);
      run.destroy();
    }
    device.close();
    const pixels = Buffer.alloc(row * height);
    const source = pixmap.getPixels();
    for (let y = 0; y < height; y += 1) {
      pixels.set(source.subarray(y * stride, y * stride + row), y * row);
    }
    return { ...covered, pixels };
  } finally {
    device.destroy();
    font.destroy();
    pixmap.destroy();
  }
}
