/**
 * Finds the QR codes on a page (ZXing, WebAssembly) and says what kind of Aadhaar QR each is,
 * without letting its payload out of this module: the legacy XML QR holds the full Aadhaar
 * number in plain text, so callers need only its position and kind.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes, type ReadResult } from 'zxing-wasm/reader';
import type { Quad, RasterImage } from '../ocr/types.js';
import { findQrTexture } from './qr-texture.js';

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
  /** The decoded text holds a PAN-shaped word (its value stays in this module). */
  readonly holdsPan: boolean;
  /**
   * The decimal text of a Secure QR, for decoding and verification; set for `aadhaar_secure`
   * only. It carries the last four digits at most, never the full number.
   */
  readonly secureText?: string;
}

/** Five letters, four digits, a letter, as a word of its own: what mask-pan must not leave. */
const PAN_WORD = /(?:^|[^A-Za-z0-9])[A-Za-z]{5}[0-9]{4}[A-Za-z](?![A-Za-z0-9])/;

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

/** Bounding boxes overlap by more than a third of the smaller one. */
function sameSpot(a: Quad, b: Quad): boolean {
  const box = (q: Quad) => ({
    x0: Math.min(...q.map((p) => p.x)),
    y0: Math.min(...q.map((p) => p.y)),
    x1: Math.max(...q.map((p) => p.x)),
    y1: Math.max(...q.map((p) => p.y)),
  });
  const [p, q] = [box(a), box(b)];
  const w = Math.min(p.x1, q.x1) - Math.max(p.x0, q.x0);
  const h = Math.min(p.y1, q.y1) - Math.max(p.y0, q.y0);
  if (w <= 0 || h <= 0) return false;
  const smaller = Math.min((p.x1 - p.x0) * (p.y1 - p.y0), (q.x1 - q.x0) * (q.y1 - q.y0));
  return w * h > smaller / 3;
}

/**
 * Every QR code on the page: those ZXing locates (decoded or not), then square blocks of QR
 * texture it did not locate, reported as `unreadable` (qr-texture.ts).
 */
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
  const symbols: QrSymbol[] = results.map((result) => {
    const kind = result.isValid ? classifyQrText(result.text) : 'unreadable';
    return {
      kind,
      quad: quadOf(result),
      holdsPan: result.isValid && PAN_WORD.test(result.text),
      ...(kind === 'aadhaar_secure' ? { secureText: result.text.trim() } : {}),
    };
  });
  for (const quad of findQrTexture(image)) {
    if (!symbols.some((s) => sameSpot(s.quad, quad))) {
      symbols.push({ kind: 'unreadable', quad, holdsPan: false });
    }
  }
  return symbols;
}
