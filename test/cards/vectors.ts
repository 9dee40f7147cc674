/**
 * The public Secure QR vectors copied into test/cards/vectors/ (provenance in its README.md),
 * and helpers that turn a modified payload back into QR text. The vectors stay in the source
 * tree, so compiled tests walk up to the project folder to find them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

function projectDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the tests');
    dir = parent;
  }
  return dir;
}

export const VECTORS_DIR = path.join(projectDir(), 'test', 'cards', 'vectors');

/** The decoder's view of the expected values (snake_case as the vectors' JSON writes them). */
export interface ExpectedVector {
  readonly compression: 'gzip' | 'zlib';
  readonly decompressed_len: number;
  readonly signed_bytes_range: readonly [number, number];
  readonly version_field: string | null;
  readonly fields: Readonly<Record<string, string>>;
  readonly extra_fields_after_vtc: readonly string[];
  readonly reference_id_parts: {
    readonly aadhaar_last4: string;
    readonly timestamp_yyyymmddhhmmssmmm_ist: string;
  };
  readonly bytes_between_photo_and_signature: number;
  readonly signature_verifies_with: readonly string[];
}

export const VECTOR_NAMES = [
  'uidai_sample_sumit_kumar_secure_qr_v1',
  'uidai_sample_penumarthi_venkat_secure_qr_v1',
  'anon_aadhaar_synthetic_v2_dataInput',
  'anon_aadhaar_synthetic_v2_test',
] as const;

export type VectorName = (typeof VECTOR_NAMES)[number];

export function vectorText(name: VectorName): string {
  return fs.readFileSync(path.join(VECTORS_DIR, `${name}.txt`), 'latin1');
}

export function expectedVector(name: VectorName): ExpectedVector {
  const json = fs.readFileSync(path.join(VECTORS_DIR, `${name}.expected.json`), 'utf8');
  return JSON.parse(json) as ExpectedVector;
}

/** Compressed bytes as QR text: the big-endian integer in decimal. */
export function bytesToDecimal(bytes: Buffer): string {
  return BigInt(`0x${bytes.toString('hex')}`).toString(10);
}

/** A payload as UIDAI would write it: gzip, then decimal. */
export function encodePayload(payload: Buffer): string {
  return bytesToDecimal(zlib.gzipSync(payload));
}
