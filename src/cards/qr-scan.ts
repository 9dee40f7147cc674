/**
 * Finds the QR codes on a page (ZXing, WebAssembly) and says what kind of Aadhaar QR each is,
 * without letting its payload out of this module: the legacy XML QR holds the full Aadhaar
 * number in plain text, so callers need only its position and kind.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import {
  prepareZXingModule,
  readBarcodes,
  type ReaderOptions,
  type ReadResult,
} from 'zxing-wasm/reader';
import type { Quad } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';
import { ScratchBuffers } from '../domain/scratch-buffers.js';
import { pixelsPerModule } from './qr-resolution.js';
import { findQrTexture } from './qr-texture.js';

export type QrKind =
  /** Unsigned `PrintLetterBarcodeData` XML: carries the full number (UIDAI's QR specification). */
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
  /** How finely the symbol was imaged (qr-resolution.ts); null when it cannot be measured. */
  readonly pixelsPerModule: number | null;
}

export interface ScanOptions {
  /**
   * Try again on each symbol that did not decode: its region cropped, upscaled and sharpened,
   * read with both of ZXing's binarizers. Costs up to a few hundred ms per symbol; used where
   * the payload matters (verification, extraction), not where any QR is covered anyway.
   */
  readonly rescue?: boolean;
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
  // The 256-byte signature alone is 617 decimal digits; a photo-less Secure QR has under 1,000.
  if (/^\d{600,}$/.test(trimmed)) return 'aadhaar_secure';
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

/** Greyscale copies of the pages ZXing reads, kept between pages (scratch-buffers.ts). */
const greyCopies = new ScratchBuffers((length) => new Uint8Array(length));

/**
 * ZXing's reading of the image. ZXing reads luminance: given RGBA, zxing-wasm converts it in
 * JavaScript into a fresh array of its own, so it is given the same luminance (its formula,
 * to the bit) as a binary PGM file, which it copies as it is. An A4 page at 300 dpi went from
 * a 35 MB RGBA copy and a 9 MB conversion to one 9 MB copy (measured: the same symbols and
 * outlines, ZXing's part 71 -> 33 ms).
 */
function readPixels(image: RasterImage, options: ReaderOptions): Promise<ReadResult[]> {
  const { width, height, channels, pixels } = image;
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1');
  return greyCopies.with(header.length + width * height, (pgm) => {
    pgm.set(header);
    const grey = pgm.subarray(header.length);
    for (let i = 0, j = 0; i < grey.length; i += 1, j += channels) {
      const red = pixels[j] as number;
      const green = pixels[j + 1] as number;
      const blue = pixels[j + 2] as number;
      grey[i] = (306 * red + 601 * green + 117 * blue + 512) >> 10;
    }
    return readBarcodes(pgm, options);
  });
}

const boundsOf = (q: Quad) => ({
  x0: Math.min(...q.map((p) => p.x)),
  y0: Math.min(...q.map((p) => p.y)),
  x1: Math.max(...q.map((p) => p.x)),
  y1: Math.max(...q.map((p) => p.y)),
});

/** The overlap of two quads' bounding boxes, and the area of each box. */
function overlapOf(a: Quad, b: Quad): { both: number; a: number; b: number } {
  const [p, q] = [boundsOf(a), boundsOf(b)];
  const w = Math.max(0, Math.min(p.x1, q.x1) - Math.max(p.x0, q.x0));
  const h = Math.max(0, Math.min(p.y1, q.y1) - Math.max(p.y0, q.y0));
  return { both: w * h, a: (p.x1 - p.x0) * (p.y1 - p.y0), b: (q.x1 - q.x0) * (q.y1 - q.y0) };
}

/** Bounding boxes overlap by more than a third of the smaller one. */
function sameSpot(a: Quad, b: Quad): boolean {
  const o = overlapOf(a, b);
  return o.both > 0 && o.both > Math.min(o.a, o.b) / 3;
}

/**
 * How far an outline may be from a square and still be a QR code's: a symbol photographed at a
 * slant keeps its sides close (measured on 6 generated images of every kind: at most 1.32 from
 * shortest to longest). An undecodable outline of another shape, with no QR texture inside it,
 * is finder-like rings elsewhere: a PVC card's hologram (sides 92 to 159 px) read as three
 * finder patterns.
 */
const MAX_SIDE_RATIO = 1.5;

function squareEnough(quad: Quad): boolean {
  const sides = quad.map((p, i) => {
    const q = quad[(i + 1) % 4] as Quad[number];
    return Math.hypot(q.x - p.x, q.y - p.y);
  });
  return Math.max(...sides) <= MAX_SIDE_RATIO * Math.min(...sides);
}

/** Below this share of a texture block inside ZXing's outline, the outline falls short. */
const FALLS_SHORT = 0.75;

/** The share of `block`'s box inside `outline`'s box. */
function shareOf(block: Quad, outline: Quad): number {
  const o = overlapOf(block, outline);
  return o.both / Math.max(1, o.a);
}

/** The axis-aligned box around both quads. */
function unionQuad(a: Quad, b: Quad): Quad {
  const [p, q] = [boundsOf(a), boundsOf(b)];
  const [x0, y0] = [Math.min(p.x0, q.x0), Math.min(p.y0, q.y0)];
  const [x1, y1] = [Math.max(p.x1, q.x1), Math.max(p.y1, q.y1)];
  return [
    { x: x0, y: y0 },
    { x: x1, y: y0 },
    { x: x1, y: y1 },
    { x: x0, y: y1 },
  ];
}

function symbolOf(result: ReadResult, quad: Quad, image: RasterImage): QrSymbol {
  const kind = result.isValid ? classifyQrText(result.text) : 'unreadable';
  // The decoded symbol's matrix, one entry per module: its width is the module count.
  const modules = result.isValid && result.symbol.width > 0 ? result.symbol.width : null;
  return {
    kind,
    quad,
    holdsPan: result.isValid && PAN_WORD.test(result.text),
    ...(kind === 'aadhaar_secure' ? { secureText: result.text.trim() } : {}),
    pixelsPerModule: pixelsPerModule(image, quad, modules),
  };
}

/**
 * Tried in order on a symbol that did not decode: upscale factor, ZXing's binarizer, and whether
 * the crop is binarised here first (after contrast stretching, at mid-grey) so that JPEG ringing
 * and uneven light are gone before ZXing looks.
 */
const RESCUES = [
  { scale: 2, binarizer: 'LocalAverage', threshold: false },
  { scale: 3, binarizer: 'LocalAverage', threshold: false },
  { scale: 2, binarizer: 'GlobalHistogram', threshold: false },
  { scale: 3, binarizer: 'LocalAverage', threshold: true },
] as const;

/** The symbol's region, cropped with a margin, upscaled, sharpened and read again. */
async function rescue(image: RasterImage, symbol: QrSymbol): Promise<QrSymbol | null> {
  const xs = symbol.quad.map((p) => p.x);
  const ys = symbol.quad.map((p) => p.y);
  const box = {
    x0: Math.min(...xs),
    y0: Math.min(...ys),
    x1: Math.max(...xs),
    y1: Math.max(...ys),
  };
  const margin = 0.12 * Math.max(box.x1 - box.x0, box.y1 - box.y0);
  const left = Math.max(0, Math.floor(box.x0 - margin));
  const top = Math.max(0, Math.floor(box.y0 - margin));
  const width = Math.min(image.width, Math.ceil(box.x1 + margin)) - left;
  const height = Math.min(image.height, Math.ceil(box.y1 + margin)) - top;
  if (width < 16 || height < 16) return null;
  const raw = { width: image.width, height: image.height, channels: image.channels };
  for (const { scale, binarizer, threshold } of RESCUES) {
    let pipeline = sharp(image.pixels, { raw })
      .extract({ left, top, width, height })
      .resize(width * scale, height * scale, { kernel: 'cubic' })
      .normalise()
      .sharpen({ sigma: 0.5 * scale });
    if (threshold) pipeline = pipeline.threshold(128);
    const { data, info } = await pipeline
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`rescue crop has ${info.channels} channels`);
    const crop = { width: info.width, height: info.height, channels: 3 as const, pixels: data };
    const [found] = await readPixels(crop, {
      formats: ['QRCode'],
      tryHarder: true,
      tryRotate: true,
      binarizer,
      maxNumberOfSymbols: 1,
    });
    if (!found?.isValid) continue;
    // Back into the page's pixels.
    const quad = quadOf(found).map((p) => ({
      x: left + p.x / scale,
      y: top + p.y / scale,
    })) as unknown as Quad;
    return symbolOf(found, quad, image);
  }
  return null;
}

/**
 * Every QR code on the page: those ZXing locates (decoded or not), then square blocks of QR
 * texture it did not locate, reported as `unreadable` (qr-texture.ts).
 */
export async function scanQrCodes(
  image: RasterImage,
  options: ScanOptions = {},
): Promise<QrSymbol[]> {
  await loadReader();
  const results = await readPixels(image, {
    formats: ['QRCode'],
    tryHarder: true,
    tryRotate: true,
    tryInvert: false,
    maxNumberOfSymbols: 8,
    returnErrors: true,
  });
  const textures = findQrTexture(image);
  const symbols: QrSymbol[] = results
    .map((result) => symbolOf(result, quadOf(result), image))
    .filter(
      (s) =>
        s.kind !== 'unreadable' ||
        squareEnough(s.quad) ||
        textures.some((quad) => sameSpot(s.quad, quad)),
    );
  for (const quad of textures) {
    const located = symbols.filter((s) => sameSpot(s.quad, quad));
    if (located.length === 0) {
      symbols.push({
        kind: 'unreadable',
        quad,
        holdsPan: false,
        pixelsPerModule: pixelsPerModule(image, quad, null),
      });
      continue;
    }
    // ZXing's outline of a symbol it could not decode can fall well short of it (measured: 40%
    // of a blurred XML QR); the texture's block is then the symbol's extent as the pixels show
    // it. An outline that misses only the block's cell-sized rims is kept: it is the tighter.
    if (located.some((s) => shareOf(quad, s.quad) >= FALLS_SHORT)) continue;
    const short = located
      .filter((s) => s.kind === 'unreadable')
      .sort((a, b) => shareOf(quad, b.quad) - shareOf(quad, a.quad))[0];
    if (short) symbols[symbols.indexOf(short)] = { ...short, quad: unionQuad(short.quad, quad) };
  }
  if (!options.rescue) return symbols;
  const rescued: QrSymbol[] = [];
  for (const symbol of symbols) {
    rescued.push(symbol.kind === 'unreadable' ? ((await rescue(image, symbol)) ?? symbol) : symbol);
  }
  return rescued;
}
