/**
 * The image form of the operators that draw a value's replacement in its place (mask, token,
 * pseudonym): a copy; the input is left untouched. Text is drawn by MuPDF with its built-in
 * Helvetica, so no system font is needed.
 */
import { mupdf } from '../documents/mupdf.js';
import type { RasterImage } from '../domain/raster.js';
import type { Replacement } from './operators/types.js';
import { coverQuads } from './raster.js';
import { advanceInEms, placeReplacement, placementMatrix } from './text-placement.js';

/**
 * Each cover filled white with its text drawn in black on the replaced text's baseline, at its
 * angle and size (text-placement.ts).
 */
export function replaceQuads(
  image: RasterImage,
  replacements: readonly Replacement[],
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
