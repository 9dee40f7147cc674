/**
 * The masked output's own pixels, whatever the reported regions say: every covered digit of a
 * generated document must be black there.
 */

import { mupdf } from '../../src/documents/mupdf.js';
import { renderPdfPage } from '../../src/documents/render.js';
import type { RasterImage } from '../../src/domain/raster.js';
import { insideQuad } from '../../src/redaction/geometry.js';
import type { MaskResult } from '../../src/services/mask-aadhaar.js';
import type { GeneratedDocument, Quad } from '../fixtures/aadhaar/index.js';
import { decodeRgb } from '../helpers/pixels.js';
import { COVERED, unverifiedNumbers } from './evaluate.js';

/** Share of sample points of a quad whose pixel is (near) black in the output. */
function blackShare(image: RasterImage, quad: Quad, scale = 1): number {
  const xs = quad.map((p) => p.x * scale);
  const ys = quad.map((p) => p.y * scale);
  const scaled = quad.map((p) => ({ x: p.x * scale, y: p.y * scale })) as unknown as Quad;
  let inside = 0;
  let black = 0;
  for (let y = Math.floor(Math.min(...ys)); y <= Math.ceil(Math.max(...ys)); y += 1) {
    for (let x = Math.floor(Math.min(...xs)); x <= Math.ceil(Math.max(...xs)); x += 1) {
      if (!insideQuad(scaled, x + 0.5, y + 0.5)) continue;
      const at = (y * image.width + x) * image.channels;
      inside += 1;
      if (
        (image.pixels[at] ?? 255) < 60 &&
        (image.pixels[at + 1] ?? 255) < 60 &&
        (image.pixels[at + 2] ?? 255) < 60
      )
        black += 1;
    }
  }
  return inside === 0 ? 1 : black / inside;
}

/**
 * Every masked digit is black in the output (to the same share as the geometric check; edge
 * pixels of a cut at the ink gap are anti-aliased grey). One line per digit that is not.
 */
export async function checkPixels(doc: GeneratedDocument, result: MaskResult): Promise<string[]> {
  const problems: string[] = [];
  for (const page of doc.truth.pages) {
    const numbers = [...page.aadhaar, ...unverifiedNumbers(page)];
    if (numbers.length === 0) continue;
    let image: RasterImage;
    let scale = 1;
    if (result.format === 'pdf') {
      const pdf = mupdf.Document.openDocument(result.bytes, 'application/pdf').asPDF();
      if (!pdf) throw new Error('output is not a PDF');
      scale = 2;
      image = renderPdfPage(pdf, page.index, 144);
      pdf.destroy();
    } else {
      image = await decodeRgb(result.bytes);
    }
    for (const number of numbers) {
      number.digits.slice(0, 8).forEach((digit, i) => {
        const share = blackShare(image, digit, scale);
        if (share < COVERED)
          problems.push(`${doc.id} p${page.index} digit ${i + 1} black ${share.toFixed(2)}`);
      });
    }
  }
  return problems;
}
