/**
 * A second look for a PAN the recogniser merged: CTC decoding turns two equal letters side by
 * side ("JJ" on a tilted photo) into one when no blank step falls between them, so the PAN
 * reads as a nine-character word. When no PAN was found on a page but a nine-character word is
 * a valid PAN with one of its characters doubled, its line is read again stretched along its
 * length, and a PAN found there that is one of those is taken, its characters mapped back to
 * the page. Extraction reports it; masking covers its middle seven like any other PAN.
 */
import { findPanOnPage } from '../detection/pan.js';
import type { Finding } from '../detection/types.js';
import { isValidPan } from '../identifiers/in/pan.js';
import { frameOfQuad, frameQuad, toFrame } from '../domain/geometry.js';
import { pixelBoxAround, scaledRegion } from '../documents/scaled-region.js';
import { boundsOf } from '../redaction/geometry.js';
import type { Point, Quad } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';
import type { PageText } from '../domain/text-layer.js';
import type { OcrEngine } from '../ocr/types.js';

/**
 * How much wider a line is read the second time: enough for a blank step between repeats
 * (measured on a 15-degree PAN photo: 1.6 still read one J of two, 2.2 read both).
 */
const STRETCH = 2.2;

/** The PANs a nine-character word could be with one of its characters doubled. */
function withRepeatRestored(word: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < word.length; i += 1) {
    const candidate = `${word.slice(0, i + 1)}${word.charAt(i)}${word.slice(i + 1)}`;
    if (isValidPan(candidate)) out.add(candidate);
  }
  return [...out];
}

/** The PANs the line's nine-character words could be. */
function mergedPans(text: string): string[] {
  // ']' is how the recogniser reads a bold J at a line's end (a PAN's last letter).
  const words = text
    .toUpperCase()
    .replace(/\]/g, 'J')
    .split(/[^A-Z0-9]+/);
  return words.filter((w) => w.length === 9).flatMap(withRepeatRestored);
}

/**
 * The merged PAN of an OCR'd page, read again from `raster` (the pixels `page` was read from),
 * with character boxes in those pixels; null when the page has a PAN or no merged one.
 */
export async function findMergedPan(
  page: PageText,
  raster: RasterImage,
  ocr: OcrEngine,
): Promise<Finding | null> {
  if (page.source !== 'ocr' || findPanOnPage(page).findings.length > 0) return null;
  for (const line of page.lines) {
    const options = mergedPans(line.text);
    if (options.length === 0) continue;
    const bounds = boundsOf(line.quad);
    // Half a line of margin round the line.
    const box = pixelBoxAround(raster, bounds, 0.5 * (bounds.y1 - bounds.y0));
    const stretched = await scaledRegion(raster, box, STRETCH, 1);
    if (!stretched) continue;
    const again = await ocr.read(stretched, page.page, 'text');
    const found = findPanOnPage(again).findings.find((f) => options.includes(f.value));
    if (!found) continue;
    // Back on the page, each character is a slice of the first reading's line frame: mapped
    // back corner by corner, the stretched reading's upright boxes turn into parallelograms
    // sheared against the text, and the cover's ink-gap cut then slid into the characters.
    const frame = frameOfQuad(line.quad, line.orientation);
    const along = (p: Point) =>
      toFrame(frame, { x: p.x / STRETCH + box.x0, y: p.y + box.y0 }).along;
    const back = ([a, b, c, d]: Quad): Quad =>
      frameQuad(frame, (along(a) + along(d)) / 2, (along(b) + along(c)) / 2);
    return {
      ...found,
      page: page.page,
      charQuads: found.charQuads.map(back),
      orientation: line.orientation,
      confidence: Math.min(line.confidence, found.confidence),
      rule: 'pan_structure_reread_stretched',
    };
  }
  return null;
}
