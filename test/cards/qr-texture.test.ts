import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import type { Quad } from '../../src/domain/geometry.js';
import type { RasterImage } from '../../src/domain/raster.js';
import { findQrTexture } from '../../src/cards/qr-texture.js';
import { boundsOf } from '../../src/redaction/geometry.js';
import { drawQr, qrMatrix } from '../fixtures/aadhaar/qr.js';
import { Rng } from '../fixtures/aadhaar/random.js';
import { cssFont, font, registerFonts } from '../fixtures/aadhaar/text.js';

const WIDTH = 700;
const HEIGHT = 520;
/** A legacy-sized payload: the XML QRs this finder exists for are version 20 or so. */
const PAYLOAD = `<PrintLetterBarcodeData uid="${'9'.repeat(12)}" name="Test Holder" ${'x'.repeat(260)}/>`;

interface Scene {
  readonly qr: boolean;
  /** Pixels per module (under two: a small symbol in a phone photo). */
  readonly module: number;
  /** A paragraph printed right against the symbol's bottom and left edges. */
  readonly paragraph: boolean;
  /** Gaussian blur sigma applied to the whole page (0: none). */
  readonly blur: number;
}

/** A white page with the scene drawn; the symbol's quad when there is one. */
async function page(scene: Scene): Promise<{ image: RasterImage; qr: Quad | null }> {
  registerFonts();
  const canvas = createCanvas(WIDTH, HEIGHT);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, WIDTH, HEIGHT);
  const [qx, qy] = [330, 120];
  let qr: Quad | null = null;
  if (scene.qr) {
    const matrix = qrMatrix(PAYLOAD, 'M', new Rng(7));
    g.imageSmoothingEnabled = true;
    qr = drawQr(g, matrix, qx, qy, scene.module);
  }
  if (scene.paragraph) {
    g.fillStyle = '#111';
    g.font = cssFont(font('latin', 15));
    const line = 'Aadhaar is proof of identity, not of citizenship. Verify online before use.';
    const bottom = qr ? boundsOf(qr).y1 : 240;
    for (let i = 0; i < 12; i += 1) g.fillText(line, 20, bottom + 14 + i * 17);
    // A column of text running into the symbol's left edge, as on a letter's cut-out card.
    for (let i = 0; i < 8; i += 1) g.fillText('Address line and pin code', 120, qy + 12 + i * 17);
  }
  const png = await canvas.encode('png');
  let image = sharp(png).removeAlpha();
  if (scene.blur > 0) image = image.blur(scene.blur);
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { image: { width: info.width, height: info.height, channels: 3, pixels: data }, qr };
}

/** Share of `target`'s area inside the union of `quads` (axis-aligned boxes). */
function coveredShare(target: Quad, quads: readonly Quad[]): number {
  const t = boundsOf(target);
  let inside = 0;
  let all = 0;
  for (let y = Math.floor(t.y0); y < t.y1; y += 1) {
    for (let x = Math.floor(t.x0); x < t.x1; x += 1) {
      all += 1;
      if (
        quads.some((q) => {
          const b = boundsOf(q);
          return x + 0.5 >= b.x0 && x + 0.5 <= b.x1 && y + 0.5 >= b.y0 && y + 0.5 <= b.y1;
        })
      )
        inside += 1;
    }
  }
  return inside / all;
}

const area = (q: Quad) => {
  const b = boundsOf(q);
  return (b.x1 - b.x0) * (b.y1 - b.y0);
};

describe('findQrTexture', () => {
  it('finds a small symbol at under two pixels a module, alone', async () => {
    const { image, qr } = await page({ qr: true, module: 1.6, paragraph: false, blur: 0 });
    const found = findQrTexture(image);
    assert.equal(found.length, 1);
    assert.ok(coveredShare(qr as Quad, found) >= 0.9);
  });

  it('finds it through the blur of a phone photo', async () => {
    const { image, qr } = await page({ qr: true, module: 1.6, paragraph: false, blur: 1.2 });
    assert.ok(coveredShare(qr as Quad, findQrTexture(image)) >= 0.9);
  });

  it('finds it inside the shape it makes with text printed against it, and leaves the text', async () => {
    const { image, qr } = await page({ qr: true, module: 1.6, paragraph: true, blur: 0.6 });
    const found = findQrTexture(image);
    assert.ok(coveredShare(qr as Quad, found) >= 0.9, `covered ${coveredShare(qr as Quad, found)}`);
    // One block, not much larger than the symbol: the paragraph is not taken for a QR.
    assert.equal(found.length, 1);
    assert.ok(area(found[0] as Quad) <= 1.35 * area(qr as Quad));
  });

  it('finds nothing in text alone', async () => {
    const { image } = await page({ qr: false, module: 1.6, paragraph: true, blur: 0.6 });
    assert.deepEqual(findQrTexture(image), []);
  });
});
