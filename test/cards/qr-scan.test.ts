import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { readBarcodes, type ReadResult } from 'zxing-wasm/reader';
import { generateDocument } from '../fixtures/aadhaar/index.js';
import { pixelsPerModule } from '../../src/cards/qr-resolution.js';
import { classifyQrText, scanQrCodes } from '../../src/cards/qr-scan.js';
import type { RasterImage } from '../../src/domain/raster.js';

/** Draws a QR code of `text` at (left, top) with `module`-pixel modules on a white page. */
function drawQr(text: string, left: number, top: number, module: number): RasterImage {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const width = 600;
  const height = 600;
  const pixels = Buffer.alloc(width * height * 3, 255);
  for (let r = 0; r < size; r += 1) {
    for (let c = 0; c < size; c += 1) {
      if (!qr.modules.get(r, c)) continue;
      for (let y = 0; y < module; y += 1) {
        for (let x = 0; x < module; x += 1) {
          pixels.fill(
            0,
            ((top + r * module + y) * width + left + c * module + x) * 3,
            ((top + r * module + y) * width + left + c * module + x) * 3 + 3,
          );
        }
      }
    }
  }
  return { width, height, channels: 3, pixels };
}

describe('QR codes on a page', () => {
  it('classifies Aadhaar QR payloads', () => {
    assert.equal(
      classifyQrText(
        '<?xml version="1.0" encoding="UTF-8"?><PrintLetterBarcodeData uid="234567890124"/>',
      ),
      'aadhaar_xml',
    );
    assert.equal(
      classifyQrText('</?xml version="1.0"?><PrintLetterBarcodeData uid="x"/>'),
      'aadhaar_xml',
    );
    assert.equal(classifyQrText('2345 6789 0124'), 'aadhaar_xml');
    assert.equal(classifyQrText('9'.repeat(2500)), 'aadhaar_secure');
    // A photo-less Secure QR: little more than its 256-byte signature.
    assert.equal(classifyQrText('9'.repeat(990)), 'aadhaar_secure');
    assert.equal(classifyQrText('9'.repeat(500)), 'other');
    assert.equal(classifyQrText('<QDA n="x" u="xxxxxxxx0124"/>'), 'aadhaar_signed_xml');
    assert.equal(classifyQrText('https://example.com/'), 'other');
  });

  it('finds an XML QR and where it is, without returning its payload', async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?><PrintLetterBarcodeData uid="234567890124" name="Test Person" yob="1990"/>';
    const symbols = await scanQrCodes(drawQr(xml, 100, 120, 4));
    assert.equal(symbols.length, 1);
    const [symbol] = symbols;
    assert.ok(symbol);
    assert.equal(symbol.kind, 'aadhaar_xml');
    assert.ok(!JSON.stringify(symbol).includes('234567890124'));
    assert.ok(
      Math.abs(symbol.quad[0].x - 100) <= 4 && Math.abs(symbol.quad[0].y - 120) <= 4,
      JSON.stringify(symbol.quad),
    );
  });

  it('reads what ZXing reads from the RGBA pixels: the same symbols, outlines and errors', async () => {
    // The scan hands ZXing its luminance as a PGM file instead of RGBA (qr-scan.ts).
    const options = {
      formats: ['QRCode' as const],
      tryHarder: true,
      tryRotate: true,
      tryInvert: false,
      maxNumberOfSymbols: 8,
      returnErrors: true,
    };
    const corners = ({ position: p }: ReadResult) =>
      [p.topLeft, p.topRight, p.bottomRight, p.bottomLeft].map(({ x, y }) => ({ x, y }));
    let symbols = 0;
    for (const [kind, seed] of [
      ['back-photo', 3],
      ['printout', 11],
      ['attested-scan', 0x99b43194],
      ['front-photo', 7],
    ] as const) {
      const doc = await generateDocument(kind, seed);
      const { data, info } = await sharp(doc.bytes).raw().toBuffer({ resolveWithObject: true });
      const image: RasterImage = {
        width: info.width,
        height: info.height,
        channels: info.channels === 4 ? 4 : 3,
        pixels: data,
      };
      // First, so that ZXing's WebAssembly is loaded from the package (qr-scan.ts).
      const found = await scanQrCodes(image);
      const rgba = await sharp(data, { raw: info }).ensureAlpha(1).raw().toBuffer();
      const { width, height } = info;
      const data4 = new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.length);
      const expected = await readBarcodes(
        { data: data4, width, height, colorSpace: 'srgb' },
        options,
      );
      // Texture blocks ZXing did not locate would come after its symbols (none on these pages).
      assert.deepEqual(
        found.map((s) => s.quad),
        expected.map(corners),
        kind,
      );
      assert.deepEqual(
        found.map((s) => s.kind === 'unreadable'),
        expected.map((r) => !r.isValid),
        kind,
      );
      symbols += expected.length;
    }
    assert.ok(symbols >= 3, `${symbols} symbols on the pages`);
  });
});

/** Gaussian blur over a page, as a soft photograph would. */
async function blurred(image: RasterImage, sigma: number): Promise<RasterImage> {
  const raw = { width: image.width, height: image.height, channels: image.channels };
  const data = await sharp(image.pixels, { raw }).blur(sigma).raw().toBuffer();
  return { ...image, pixels: data };
}

describe('QR resolution', () => {
  // An alphanumeric payload of version 13 at level M: 69 modules a side.
  const dense = 'A'.repeat(420);

  it('reports pixels per module of a decoded symbol from its module count', async () => {
    for (const module of [3, 5]) {
      const [symbol] = await scanQrCodes(drawQr(dense, 40, 40, module));
      assert.ok(symbol);
      assert.equal(symbol.kind, 'other');
      assert.ok(
        Math.abs((symbol.pixelsPerModule ?? 0) - module) < 0.1,
        `${symbol.pixelsPerModule} for ${module}`,
      );
    }
  });

  it('measures an undecodable symbol on its finder patterns', () => {
    // The module size is measured on the image whatever ZXing made of it.
    for (const module of [2, 3, 4]) {
      const image = drawQr(dense, 40, 40, module);
      const side = 69 * module;
      const quad = [
        { x: 40, y: 40 },
        { x: 40 + side, y: 40 },
        { x: 40 + side, y: 40 + side },
        { x: 40, y: 40 + side },
      ] as const;
      const measured = pixelsPerModule(image, quad, null);
      assert.ok(measured !== null && Math.abs(measured - module) < 0.35 * module, `${measured}`);
    }
  });

  it('reads a soft symbol again from its upscaled, sharpened region', async () => {
    const image = await blurred(drawQr(dense, 40, 40, 2), 1.1);
    const plain = await scanQrCodes(image);
    const rescued = await scanQrCodes(image, { rescue: true });
    assert.ok(!plain.some((s) => s.kind === 'other'), 'whole-image read fails on this symbol');
    assert.ok(
      rescued.some((s) => s.kind === 'other'),
      JSON.stringify(rescued.map((s) => s.kind)),
    );
  });
});
