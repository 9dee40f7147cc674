/**
 * From scanned Secure QR text to the decompressed payload (UIDAI's QR specification): the QR holds
 * one decimal integer whose unsigned big-endian bytes are a gzip member (UIDAI) or a zlib
 * stream (anon-aadhaar's synthetic test data). Both are accepted: the signature covers the
 * inflated bytes, so the container adds nothing to trust.
 */
import zlib from 'node:zlib';
import { SecureQrError } from './secure-qr-error.js';

/**
 * A version-40 QR holds at most 7,089 digits; genuine Secure QRs have about 3,200. The cap
 * keeps the quadratic decimal-to-binary conversion cheap on hostile input.
 */
export const MAX_DIGITS = 8000;

/** Genuine payloads inflate to about 1.4 KB; anything near this cap is not a Secure QR. */
export const MAX_INFLATED_BYTES = 64 * 1024;

/**
 * Decimal text to its minimal unsigned big-endian bytes. BigInt does the base conversion; no
 * library is needed for that, and hex keeps it unsigned (no sign byte as in Java's
 * BigInteger.toByteArray). Digits are checked first: BigInt's own SyntaxError quotes its input.
 */
export function decimalToBytes(text: string): Buffer {
  const digits = text.trim();
  if (!/^[0-9]+$/.test(digits)) throw new SecureQrError('not_numeric', 'QR text is not decimal');
  if (digits.length > MAX_DIGITS) {
    throw new SecureQrError('too_long', `QR text has more than ${MAX_DIGITS} digits`);
  }
  const hex = BigInt(digits).toString(16);
  return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
}

function isGzip(bytes: Buffer): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** RFC 1950: deflate method, and the header read as a 16-bit number is a multiple of 31. */
function isZlib(bytes: Buffer): boolean {
  const cmf = bytes[0];
  const flg = bytes[1];
  if (cmf === undefined || flg === undefined) return false;
  const method = cmf & 0x0f;
  const windowBits = (cmf >> 4) + 8;
  return method === 8 && windowBits <= 15 && ((cmf << 8) | flg) % 31 === 0;
}

function inflaterFor(bytes: Buffer): typeof zlib.inflateSync {
  if (isGzip(bytes)) return zlib.gunzipSync;
  if (isZlib(bytes)) return zlib.inflateSync;
  throw new SecureQrError('not_compressed', 'QR bytes are not gzip or zlib data');
}

/** Inflates with a hard output cap, so that a small QR cannot expand into a large buffer. */
export function inflatePayload(compressed: Buffer): Buffer {
  const inflate = inflaterFor(compressed);
  try {
    return inflate(compressed, { maxOutputLength: MAX_INFLATED_BYTES });
  } catch (error) {
    if (error instanceof RangeError && 'code' in error && error.code === 'ERR_BUFFER_TOO_LARGE') {
      throw new SecureQrError('too_large', `QR data inflates past ${MAX_INFLATED_BYTES} bytes`);
    }
    // zlib's own messages hold no data, but they are not ours to promise: keep only the kind.
    throw new SecureQrError('malformed', 'QR data is truncated or corrupt compressed data');
  }
}
