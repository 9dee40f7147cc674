/**
 * A plain synthetic card for API tests: a few labelled lines and a number, with the box of
 * every digit. (The realistic corpus with photos and printouts is test/fixtures/aadhaar.)
 */
import { createRequire } from 'node:module';
import { GlobalFonts, createCanvas } from '@napi-rs/canvas';
import QRCode from 'qrcode';
import sharp from 'sharp';

const require = createRequire(import.meta.url);
const FONT = 'Parda Test Sans';
GlobalFonts.registerFromPath(
  require.resolve('@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff2'),
  FONT,
);

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface SimpleCard {
  readonly png: Buffer;
  readonly width: number;
  readonly height: number;
  /** Boxes of the number's digits, in order (spaces skipped). */
  readonly digits: readonly Box[];
  readonly qr: Box | null;
}

export async function simpleCard(options: {
  number?: string;
  lines?: readonly string[];
  xmlQrUid?: string;
  format?: 'png' | 'jpeg';
}): Promise<SimpleCard & { bytes: Buffer }> {
  const width = 1200;
  const height = 760;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#f4f1e8';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#111111';
  g.font = `32px "${FONT}"`;
  (options.lines ?? ['Government of India', 'Name: Test Person', 'DOB: 12/05/1990']).forEach(
    (text, i) => {
      g.fillText(text, 80, 90 + i * 70);
    },
  );
  const digits: Box[] = [];
  if (options.number !== undefined) {
    g.font = `56px "${FONT}"`;
    const x0 = 80;
    const baseline = 620;
    const metrics = g.measureText('0');
    const ascent = metrics.actualBoundingBoxAscent;
    Array.from(options.number).forEach((ch, i) => {
      const x = x0 + g.measureText(options.number?.slice(0, i) ?? '').width;
      g.fillText(ch, x, baseline);
      if (/\d/.test(ch)) {
        digits.push({ x, y: baseline - ascent, width: g.measureText(ch).width, height: ascent });
      }
    });
  }
  let qr: Box | null = null;
  if (options.xmlQrUid !== undefined) {
    const payload = `<?xml version="1.0" encoding="UTF-8"?><PrintLetterBarcodeData uid="${options.xmlQrUid}" name="Test Person" gender="M" yob="1990" pc="560001"/>`;
    const code = QRCode.create(payload, { errorCorrectionLevel: 'M' });
    const module = 5;
    const left = 860;
    const top = 120;
    g.fillStyle = '#ffffff';
    g.fillRect(
      left - 20,
      top - 20,
      code.modules.size * module + 40,
      code.modules.size * module + 40,
    );
    g.fillStyle = '#000000';
    for (let r = 0; r < code.modules.size; r += 1) {
      for (let c = 0; c < code.modules.size; c += 1) {
        if (code.modules.get(r, c)) g.fillRect(left + c * module, top + r * module, module, module);
      }
    }
    qr = { x: left, y: top, width: code.modules.size * module, height: code.modules.size * module };
  }
  const png = canvas.toBuffer('image/png');
  const bytes = options.format === 'jpeg' ? await sharp(png).jpeg({ quality: 92 }).toBuffer() : png;
  return { png, bytes, width, height, digits, qr };
}

/** Share of a box's pixels that are (near) black in a decoded RGB image. */
export function blackShare(
  pixels: Buffer,
  width: number,
  channels: number,
  box: Box,
  threshold = 40,
): number {
  let black = 0;
  let total = 0;
  for (let y = Math.ceil(box.y); y < Math.floor(box.y + box.height); y += 1) {
    for (let x = Math.ceil(box.x); x < Math.floor(box.x + box.width); x += 1) {
      const at = (y * width + x) * channels;
      total += 1;
      if (
        (pixels[at] ?? 255) < threshold &&
        (pixels[at + 1] ?? 255) < threshold &&
        (pixels[at + 2] ?? 255) < threshold
      ) {
        black += 1;
      }
    }
  }
  return total === 0 ? 0 : black / total;
}
