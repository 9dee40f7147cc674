/**
 * A second look at the copies of a number found on an Aadhaar page that a mark across them
 * damaged (detection/aadhaar-copies.ts): a line fused with a pen line or a signature, whose boxes
 * reach the lines around it, and a line holding only part of a number found elsewhere on the
 * page. Each is read again from its box with the thin strokes taken out (ocr/thin-strokes.ts);
 * the number read there replaces the fused reading, or covers the partial copy. A partial copy
 * that still does not read is covered from its own digits, stretched over the digits it lacks,
 * and counted unverified (fail closed).
 */
import { mayBeAadhaarPage, UNVERIFIED_RULE } from '../detection/aadhaar-context.js';
import {
  copyOnPage,
  fusedWithMark,
  partialCopies,
  pitchOf,
  type PartialCopy,
} from '../detection/aadhaar-copies.js';
import type { Finding } from '../detection/types.js';
import { frameOfQuad, frameQuad, toFrame } from '../domain/geometry.js';
import { pixelBoxAround, type PixelBox } from '../documents/scaled-region.js';
import { thinStrokeRadius, withoutThinStrokes } from '../ocr/thin-strokes.js';
import type { Quad } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';
import type { PageText } from '../domain/text-layer.js';
import type { OcrEngine } from '../ocr/types.js';
import { boundsOf, boundsOfAll } from '../redaction/geometry.js';

/** A number's length: what a partial copy lacks is at most this many pitches of the line. */
const DIGITS = 12;
/** Group gaps make a number about this much longer than twelve digit widths. */
const GAPS = 1.15;

const shifted = (quad: Quad, box: PixelBox): Quad =>
  quad.map((p) => ({ x: p.x + box.x0, y: p.y + box.y0 })) as unknown as Quad;

/** The partial copy's line, stretched along its direction over the digits it may lack. */
function alongLine(copy: PartialCopy, pitch: number) {
  const b = boundsOf(copy.line.quad);
  const reach = (DIGITS - copy.digits.length + 1) * pitch;
  return copy.line.orientation % 180 === 0
    ? { ...b, x0: b.x0 - reach, x1: b.x1 + reach }
    : { ...b, y0: b.y0 - reach, y1: b.y1 + reach };
}

/**
 * One of `values` read in `box` without its thin strokes, in `raster`'s pixels: opened with the radius
 * for the digits' pitch, then one pixel more (a ballpoint line on a 200 dpi copy is as wide as a
 * third of its digits' stroke, and may stay at the smaller radius).
 */
async function readWithoutMarks(
  raster: RasterImage,
  box: PixelBox,
  pitch: number,
  values: readonly string[],
  page: number,
  ocr: OcrEngine,
): Promise<Finding | null> {
  const radius = thinStrokeRadius(pitch);
  for (const r of [radius, radius + 1]) {
    const cleaned = await withoutThinStrokes(raster, box, r);
    if (!cleaned) return null;
    const reading = await ocr.read(cleaned, page, 'numbers');
    const copy = values.map((v) => copyOnPage(reading, v)).find((c) => c !== null);
    if (copy) return { ...copy, page, charQuads: copy.charQuads.map((q) => shifted(q, box)) };
  }
  return null;
}

/**
 * The partial copy as an unverified finding: its digits where it has them, and the number's
 * missing digits before and after them as one stretch of the line each, `pitch` apart.
 */
function stretchedCopy(copy: PartialCopy, pitch: number, page: number): Finding {
  const { line, digits, offset } = copy;
  const frame = frameOfQuad(line.quad, line.orientation);
  const start = toFrame(frame, (digits[0] as (typeof digits)[0]).quad[0]).along;
  const end = toFrame(frame, (digits.at(-1) as (typeof digits)[0]).quad[1]).along;
  const after = DIGITS - offset - digits.length;
  const before = frameQuad(frame, start - offset * pitch * GAPS, start);
  const beyond = frameQuad(frame, end, end + after * pitch * GAPS);
  const charQuads = Array.from({ length: DIGITS }, (_, i) =>
    i < offset ? before : (digits[i - offset]?.quad ?? beyond),
  );
  return {
    type: 'aadhaar',
    page,
    value: '?'.repeat(DIGITS),
    charQuads,
    orientation: line.orientation,
    confidence: line.confidence,
    rule: UNVERIFIED_RULE,
    source: 'ocr',
    printed: digits.map((c) => c.text).join(''),
  };
}

/**
 * The look at damaged copies of the numbers found on an OCR'd page: the findings to cover
 * instead of `found` (fused readings replaced where they read again, partial copies added).
 */
export async function readDamagedCopies(
  page: PageText,
  raster: RasterImage,
  ocr: OcrEngine,
  found: readonly Finding[],
): Promise<readonly Finding[]> {
  if (page.source !== 'ocr' || found.length === 0 || !mayBeAadhaarPage(page)) return found;
  const out: Finding[] = [];
  const verified = found.filter((f) => f.rule !== UNVERIFIED_RULE).map((f) => f.value);
  const clean = found.filter((f) => !fusedWithMark(f));
  for (const finding of found) {
    if (clean.includes(finding)) {
      out.push(finding);
      continue;
    }
    const pitch = pitchOf(finding);
    const box = pixelBoxAround(raster, boundsOfAll(finding.charQuads), pitch);
    const values = [...new Set([finding.value, ...verified].filter((v) => /^\d{12}$/.test(v)))];
    out.push((await readWithoutMarks(raster, box, pitch, values, page.page, ocr)) ?? finding);
  }
  for (const copy of partialCopies(page.lines, found)) {
    const reference = clean.find((f) => f.value === copy.value) ?? found[0];
    const pitch = reference ? pitchOf(reference) : 0;
    if (pitch <= 0) continue;
    // Room for the digits the line lacks on either side, and a pitch above and below.
    const box = pixelBoxAround(raster, alongLine(copy, pitch), pitch);
    const again = await readWithoutMarks(raster, box, pitch, [copy.value], page.page, ocr);
    out.push(again ?? stretchedCopy(copy, pitch, page.page));
  }
  return out;
}
