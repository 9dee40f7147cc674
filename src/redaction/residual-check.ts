/**
 * The re-read before a masked image leaves: every covered region of the output raster is cut
 * out with a margin of about a line around it, enlarged, and read again by the OCR engine at
 * 0, 90, 180 and 270 degrees. The first reading found the value at the page's own scale; this
 * one reads a crop at another scale, so a cover that missed a sliver, slid off the glyphs or
 * was never drawn shows up as the covered characters read once more.
 *
 * What counts as readable: the covered characters of a value (an Aadhaar number's first eight
 * digits, a PAN's middle seven) appearing in the crop's text, compared after the target's own
 * normalisation (digits only, or letters and digits). Regions with nothing textual to look for
 * (QR codes, suspect words) are covered whole and not re-read.
 */
import sharp from 'sharp';
import type { OcrEngine, Quad, RasterImage, ReadPurpose } from '../ocr/types.js';
import { boundsOf } from './geometry.js';

/** A covered region, in the raster's pixels, and the characters it must have hidden. */
export interface ResidualTarget {
  readonly quads: readonly Quad[];
  readonly hidden: readonly string[];
}

/** The margin around a region that is read again, in heights of the region. */
const MARGIN = 0.5;
/** The re-read's scale: not the first reading's, so that it is a second look, not a replay. */
const SCALE = 1.25;

function crop(raster: RasterImage, quads: readonly Quad[]): RasterImage | null {
  const boxes = quads.map(boundsOf);
  const x0 = Math.min(...boxes.map((b) => b.x0));
  const y0 = Math.min(...boxes.map((b) => b.y0));
  const x1 = Math.max(...boxes.map((b) => b.x1));
  const y1 = Math.max(...boxes.map((b) => b.y1));
  // The margin follows the shorter side: a number printed sideways is tall and narrow.
  const margin = MARGIN * Math.min(x1 - x0, y1 - y0);
  const left = Math.max(0, Math.floor(x0 - margin));
  const top = Math.max(0, Math.floor(y0 - margin));
  const right = Math.min(raster.width, Math.ceil(x1 + margin));
  const bottom = Math.min(raster.height, Math.ceil(y1 + margin));
  const width = right - left;
  const height = bottom - top;
  if (width < 2 || height < 2) return null;
  const { channels } = raster;
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y += 1) {
    const from = ((top + y) * raster.width + left) * channels;
    raster.pixels.copy(pixels, y * width * channels, from, from + width * channels);
  }
  return { width, height, channels, pixels };
}

async function enlarge(image: RasterImage): Promise<RasterImage> {
  const { width, height, channels } = image;
  const { data, info } = await sharp(image.pixels, { raw: { width, height, channels } })
    .resize(Math.round(width * SCALE), Math.round(height * SCALE), { kernel: 'cubic' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels, pixels: data };
}

/**
 * The indexes of `targets` whose hidden characters can still be read on `raster`. Reads only
 * the regions, so that its cost grows with the values covered, not with the page.
 */
export async function readableTargets(
  raster: RasterImage,
  targets: readonly ResidualTarget[],
  ocr: OcrEngine,
  page: number,
  normalise: (text: string) => string,
  purpose: ReadPurpose,
): Promise<number[]> {
  const readable: number[] = [];
  for (const [index, target] of targets.entries()) {
    const hidden = target.hidden.map(normalise).filter((h) => h.length > 0);
    if (hidden.length === 0 || target.quads.length === 0) continue;
    const region = crop(raster, target.quads);
    if (!region) continue;
    const read = await ocr.read(await enlarge(region), page, purpose);
    // Lines one by one and all together: a value split over two detected boxes still counts.
    const texts = read.lines.map((line) => normalise(line.text));
    const all = [...texts, texts.join('')];
    if (hidden.some((h) => all.some((text) => text.includes(h)))) readable.push(index);
  }
  return readable;
}
