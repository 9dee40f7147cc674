/**
 * Finds the QR codes on a page (ZXing, WebAssembly) and says what kind of Aadhaar QR each is,
 * without letting its payload out of this module: the legacy XML QR holds the full Aadhaar
 * number in plain text, so callers need only its position and kind.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes, type ReadResult } from 'zxing-wasm/reader';
import type { Quad, RasterImage } from '../ocr/types.js';

export type QrKind =
  /** Unsigned `PrintLetterBarcodeData` XML: carries the full number (aadhaar-qr.md 2.1). */
  | 'aadhaar_xml'
  /** Secure QR: a long decimal string of signed, compressed data; last four digits only. */
  | 'aadhaar_secure'
  /** Signed XML (QDA/QDB/...): the number inside is masked. */
  | 'aadhaar_signed_xml'
  | 'other'
  /** Found but not decodable (too small, blurred): its kind is unknown. */
  | 'unreadable';

export interface QrSymbol {
  readonly kind: QrKind;
  /** Corners in the image: top-left, top-right, bottom-right, bottom-left of the symbol. */
  readonly quad: Quad;
}

let ready: Promise<unknown> | null = null;

/** Loads the reader's WebAssembly from the installed package; nothing is fetched. */
function loadReader(): Promise<unknown> {
  if (!ready) {
    const require = createRequire(import.meta.url);
    const wasmPath = require.resolve('zxing-wasm/reader/zxing_reader.wasm');
    const binary = fs.readFileSync(wasmPath);
    ready = prepareZXingModule({
      overrides: {
        wasmBinary: binary.buffer.slice(binary.byteOffset, binary.byteOffset + binary.byteLength),
      },
      fireImmediately: true,
    });
  }
  return ready;
}

export function classifyQrText(text: string): QrKind {
  const trimmed = text.trim();
  if (trimmed.includes('PrintLetterBarcodeData')) return 'aadhaar_xml';
  if (/^<\??\s*Q[A-Z]*\b/.test(trimmed.replace(/^<\?xml[^>]*>\s*/, '<'))) {
    return 'aadhaar_signed_xml';
  }
  if (/^\d{1000,}$/.test(trimmed)) return 'aadhaar_secure';
  // A bare 12-digit QR may well be an Aadhaar number: treat it like the XML one.
  if (/^\d{4}[ -]?\d{4}[ -]?\d{4}$/.test(trimmed)) return 'aadhaar_xml';
  return 'other';
}

function quadOf(result: ReadResult): Quad {
  const { topLeft, topRight, bottomRight, bottomLeft } = result.position;
  return [topLeft, topRight, bottomRight, bottomLeft].map(({ x, y }) => ({
    x,
    y,
  })) as unknown as Quad;
}

function toImageData(image: RasterImage) {
  const { width, height, channels, pixels } = image;
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i += 1, j += channels) {
    rgba[i * 4] = pixels[j] ?? 0;
    rgba[i * 4 + 1] = pixels[j + 1] ?? 0;
    rgba[i * 4 + 2] = pixels[j + 2] ?? 0;
    rgba[i * 4 + 3] = 255;
  }
  return { data: rgba, width, height, colorSpace: 'srgb' as const };
}

export async function scanQrCodes(image: RasterImage): Promise<QrSymbol[]> {
  await loadReader();
  const results = await readBarcodes(toImageData(image), {
    formats: ['QRCode'],
    tryHarder: true,
    tryRotate: true,
    tryInvert: false,
    maxNumberOfSymbols: 8,
    returnErrors: true,
  });
  return results.map((result) => ({
    kind: result.isValid ? classifyQrText(result.text) : 'unreadable',
    quad: quadOf(result),
  }));
}
