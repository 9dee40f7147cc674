/**
 * What else a mask covered: the print under the covers that is not the digits they are for.
 * The document is generated again with the Aadhaar digits left out (the blank-digit control:
 * the same pixels everywhere else), and the dark pixels of that control inside any cover, away
 * from the covered digits themselves, are print of something else: a label, the line above or
 * below, the next word. The masking tests hold this to (near) zero. Covers of numbers only: a
 * QR's cover is its box and quiet zone, whatever lies there.
 */
import { mupdf } from '../../src/documents/mupdf.js';
import { renderPdfPage } from '../../src/documents/render.js';
import type { RasterImage } from '../../src/domain/raster.js';
import { insideQuad } from '../../src/redaction/geometry.js';
import type { MaskResult } from '../../src/services/mask-aadhaar.js';
import { generateDocument, type GeneratedDocument, type Quad } from '../fixtures/aadhaar/index.js';
import { decodeRgb } from '../helpers/pixels.js';
import { unverifiedNumbers } from './evaluate.js';

/**
 * Print, not paper, the card's pattern or a photo's shading: this dark in luminance (the red
 * footer of a card is about 85, its grey pattern above 200).
 */
const DARK = 120;
/** Room round a digit's ink box (page pixels): anti-aliasing and JPEG ringing. */
const DIGIT_MARGIN = 2;
/**
 * Dark pixels of other print a cover may hold before it counts as touching it: a few stray
 * pixels of JPEG noise or a speck of a photo's texture, never a stroke of a letter (a 7 px
 * card letter has about 20 dark pixels).
 */
export const FOREIGN_INK_ALLOWED = 8;

/** `quad` grown by `d` on every side (its bounding box). */
function grown(quad: Quad, d: number): Quad {
  const xs = quad.map((p) => p.x);
  const ys = quad.map((p) => p.y);
  const [x0, y0, x1, y1] = [
    Math.min(...xs) - d,
    Math.min(...ys) - d,
    Math.max(...xs) + d,
    Math.max(...ys) + d,
  ];
  return [
    { x: x0, y: y0 },
    { x: x1, y: y0 },
    { x: x1, y: y1 },
    { x: x0, y: y1 },
  ];
}

async function controlPages(
  doc: GeneratedDocument,
): Promise<{ image: RasterImage; scale: number }[]> {
  const control = await generateDocument(doc.kind, doc.seed, { omitAadhaarDigits: true });
  if (control.format !== 'pdf') return [{ image: await decodeRgb(control.bytes), scale: 1 }];
  const pdf = mupdf.Document.openDocument(control.bytes, 'application/pdf').asPDF();
  if (!pdf) throw new Error('control is not a PDF');
  try {
    return doc.truth.pages.map((_, i) => ({ image: renderPdfPage(pdf, i, 144), scale: 2 }));
  } finally {
    pdf.destroy();
  }
}

function dark(image: RasterImage, x: number, y: number): boolean {
  const at = (y * image.width + x) * image.channels;
  const luminance =
    0.299 * (image.pixels[at] ?? 255) +
    0.587 * (image.pixels[at + 1] ?? 255) +
    0.114 * (image.pixels[at + 2] ?? 255);
  return luminance < DARK;
}

/**
 * Per page with covers, the dark pixels of other print under them (in the control's pixels).
 * PDF text pages are left out: their digits cannot be left out of the control.
 */
export async function foreignInk(doc: GeneratedDocument, result: MaskResult): Promise<number[]> {
  const pages = await controlPages(doc);
  const out: number[] = [];
  for (const page of doc.truth.pages) {
    const covers = result.regions.find((r) => r.page === page.index)?.quads ?? [];
    const control = pages[page.index];
    if (covers.length === 0 || !control || page.textLayer) continue;
    const { image, scale } = control;
    const own = [...[...page.aadhaar, ...unverifiedNumbers(page)].flatMap((n) => n.digits)].map(
      (d) => grown(d, DIGIT_MARGIN),
    );
    const digitCentres = [...page.aadhaar, ...unverifiedNumbers(page)]
      .flatMap((n) => n.digits)
      .map((d) => ({
        x: d.reduce((s, p) => s + p.x, 0) / 4,
        y: d.reduce((s, p) => s + p.y, 0) / 4,
      }));
    let count = 0;
    for (const cover of covers.filter((c) => digitCentres.some((p) => insideQuad(c, p.x, p.y)))) {
      const xs = cover.map((p) => p.x * scale);
      const ys = cover.map((p) => p.y * scale);
      const y0 = Math.max(0, Math.floor(Math.min(...ys)));
      const y1 = Math.min(image.height - 1, Math.ceil(Math.max(...ys)));
      const x0 = Math.max(0, Math.floor(Math.min(...xs)));
      const x1 = Math.min(image.width - 1, Math.ceil(Math.max(...xs)));
      for (let y = y0; y <= y1; y += 1) {
        for (let x = x0; x <= x1; x += 1) {
          const px = (x + 0.5) / scale;
          const py = (y + 0.5) / scale;
          if (!insideQuad(cover, px, py) || !dark(image, x, y)) continue;
          if (own.some((q) => insideQuad(q, px, py))) continue;
          count += 1;
        }
      }
    }
    out.push(count);
  }
  return out;
}
