/**
 * Cuts a decompressed Secure QR payload into its parts (UIDAI's QR specification):
 *
 *   [V2+: "Vn" FF] 16 text fields, each + FF  [V2+: up to 3 extra fields, each + FF]
 *   [photo: JPEG 2000]  [tail: 0, 32 or 64 bytes of hashes / e-mail block]  signature (256)
 *
 * Fields are found by counting delimiters from the start, never by splitting the whole array:
 * the photo, the hashes and the signature all hold 0xFF bytes. The photo is only measured to
 * find where the tail starts; its bytes are not kept apart from the signed data.
 */
import { SecureQrError } from './secure-qr-error.js';

export type SecureQrVersion = 'V1' | 'V2' | 'V3' | 'V4' | 'V5';

export const SIGNATURE_LENGTH = 256;
/** V1 order (UIDAI's QR specification): indicator, reference id, name, ..., vtc. */
export const TEXT_FIELD_COUNT = 16;
/** Known layouts have one extra (mobile) or three (V5 foreign national: flag, date, mobile). */
const MAX_EXTRA_FIELDS = 3;
/** Extras are short (a flag, a date, a masked mobile); longer runs are photo or tail bytes. */
const MAX_EXTRA_LENGTH = 32;
const HASH_BLOCK = 32;
const DELIMITER = 0xff;

/** J2K codestream: SOC then SIZ markers, as in both UIDAI samples. */
const J2K_START = Buffer.from([0xff, 0x4f, 0xff, 0x51]);
const J2K_END = Buffer.from([0xff, 0xd9]);
/** JP2 file signature box, which one V3-V5 decoder also looks for. */
const JP2_START = Buffer.from([0, 0, 0, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a]);

export interface SecureQrLayout {
  readonly version: SecureQrVersion;
  /** The 16 V1-order text fields, raw bytes without their delimiters. */
  readonly fields: readonly Buffer[];
  /** V2+: the delimited fields between vtc and the photo. */
  readonly extras: readonly Buffer[];
  /** Bytes between the photo (or the last field) and the signature. */
  readonly tail: Buffer;
  readonly signedData: Buffer;
  readonly signature: Buffer;
}

/** Reads fields one delimiter at a time within the signed part. */
class Cursor {
  at = 0;
  constructor(readonly bytes: Buffer) {}

  get remaining(): number {
    return this.bytes.length - this.at;
  }

  startsWith(marker: Buffer): boolean {
    return this.bytes.subarray(this.at, this.at + marker.length).equals(marker);
  }

  /** The next field, or null when no delimiter is left. */
  peekField(): Buffer | null {
    const end = this.bytes.indexOf(DELIMITER, this.at);
    return end < 0 ? null : this.bytes.subarray(this.at, end);
  }

  field(): Buffer {
    const value = this.peekField();
    if (!value) throw new SecureQrError('malformed', 'QR payload ends before its text fields');
    this.at += value.length + 1;
    return value;
  }
}

const KNOWN_VERSIONS: ReadonlySet<string> = new Set(['V2', 'V3', 'V4', 'V5']);

/** V2+ start with "V" and a number; V1 starts directly with the indicator digit. */
function readVersion(cursor: Cursor): SecureQrVersion {
  if (cursor.bytes[0] !== 0x56 /* V */) return 'V1';
  const field = cursor.field().toString('latin1');
  if (!/^V[0-9]{1,2}$/.test(field)) {
    throw new SecureQrError('malformed', 'QR payload has an unreadable version field');
  }
  // "V1" is never written (V1 has no version field), so it is as unknown as "V9".
  if (!KNOWN_VERSIONS.has(field)) {
    throw new SecureQrError('unsupported_version', 'QR payload has an unknown layout version');
  }
  return field as SecureQrVersion;
}

/**
 * How many bytes may sit between photo and signature. V1: one 32-byte hash per contact the
 * indicator announces (verified on both UIDAI samples). V2+: no public genuine sample; decoders
 * read none or a 32-byte e-mail block, and anon-aadhaar's synthetic V2 keeps V1's 64 bytes.
 */
function allowedTails(version: SecureQrVersion, indicator: Buffer): ReadonlySet<number> {
  if (version !== 'V1') return new Set([0, HASH_BLOCK, 2 * HASH_BLOCK]);
  const value = indicator.length === 1 ? (indicator[0] ?? 0) - 0x30 : -1;
  if (value < 0 || value > 3) {
    throw new SecureQrError('malformed', 'QR payload has an invalid e-mail/mobile indicator');
  }
  return new Set([HASH_BLOCK * ((value & 1) + (value >> 1))]);
}

function isPhotoStart(cursor: Cursor): boolean {
  return cursor.startsWith(J2K_START) || cursor.startsWith(JP2_START);
}

/** A short run of printable text ending in a delimiter: what an extra field looks like. */
function nextExtra(cursor: Cursor): Buffer | null {
  const value = cursor.peekField();
  if (!value || value.length > MAX_EXTRA_LENGTH) return null;
  return value.every((byte) => byte >= 0x20 && byte !== 0x7f) ? value : null;
}

/**
 * The count of extras is not hard-coded (UIDAI's QR specification): read them until the photo
 * starts or only a tail is left, and never more than the known layouts hold.
 */
function readExtras(cursor: Cursor, tails: ReadonlySet<number>): Buffer[] {
  const extras: Buffer[] = [];
  while (extras.length < MAX_EXTRA_FIELDS) {
    if (isPhotoStart(cursor) || tails.has(cursor.remaining)) break;
    const value = nextExtra(cursor);
    if (!value) break;
    extras.push(cursor.field());
  }
  return extras;
}

/** End of a J2K codestream: the first EOC marker that leaves a tail of an allowed length. */
function j2kEnd(bytes: Buffer, start: number, tails: ReadonlySet<number>): number {
  for (let at = bytes.indexOf(J2K_END, start + J2K_START.length); at >= 0;) {
    const end = at + J2K_END.length;
    if (tails.has(bytes.length - end)) return end;
    at = bytes.indexOf(J2K_END, at + 1);
  }
  throw new SecureQrError('malformed', 'QR photo has no end where the layout expects one');
}

/** End of a JP2 file: walk its boxes to the codestream box that leaves an allowed tail. */
function jp2End(bytes: Buffer, start: number, tails: ReadonlySet<number>): number {
  for (let at = start; at + 8 <= bytes.length;) {
    const size32 = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const size =
      size32 === 1 && at + 16 <= bytes.length ? Number(bytes.readBigUInt64BE(at + 8)) : size32;
    // Size 0 ("to the end of the file") cannot say where the tail starts.
    if (size < 8) break;
    at += size;
    if (at > bytes.length) break;
    if (type === 'jp2c' && tails.has(bytes.length - at)) return at;
  }
  throw new SecureQrError('malformed', 'QR photo has no end where the layout expects one');
}

/** Skips the photo, if any, and returns where the tail starts. */
function photoEnd(cursor: Cursor, tails: ReadonlySet<number>): number {
  if (cursor.startsWith(J2K_START)) return j2kEnd(cursor.bytes, cursor.at, tails);
  if (cursor.startsWith(JP2_START)) return jp2End(cursor.bytes, cursor.at, tails);
  // A photo-less QR (the small demographic one): only the tail may follow the fields.
  if (tails.has(cursor.remaining)) return cursor.at;
  throw new SecureQrError('malformed', 'QR payload has unexpected bytes after its text fields');
}

export function splitSecureQr(data: Buffer): SecureQrLayout {
  if (data.length <= SIGNATURE_LENGTH + TEXT_FIELD_COUNT) {
    throw new SecureQrError('malformed', 'QR payload is too short to hold fields and a signature');
  }
  const signedData = data.subarray(0, data.length - SIGNATURE_LENGTH);
  const signature = data.subarray(data.length - SIGNATURE_LENGTH);
  const cursor = new Cursor(signedData);
  const version = readVersion(cursor);
  const fields = Array.from({ length: TEXT_FIELD_COUNT }, () => cursor.field());
  const tails = allowedTails(version, fields[0] ?? Buffer.alloc(0));
  const extras = version === 'V1' ? [] : readExtras(cursor, tails);
  const tail = signedData.subarray(photoEnd(cursor, tails));
  return { version, fields, extras, tail, signedData, signature };
}
