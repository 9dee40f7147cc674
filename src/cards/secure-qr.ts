/**
 * Decodes an Aadhaar Secure QR (UIDAI's QR specification): scanned decimal text -> bytes ->
 * inflated payload -> layout -> typed fields. The photo and the e-mail/mobile hashes are
 * skipped by position and never returned (they are covered by `signedData`, which the
 * signature check needs whole).
 *
 * Decoding does not check the signature: see qr-signature.ts. Fields are unverified data until
 * that check says `valid`.
 *
 *   decodeSecureQr('2374971804...') // UIDAI's "Sumit Kumar" sample: V1, last4 '2697'
 *   decodeSecureQr('12ab')          // SecureQrError 'not_numeric'
 */
import { decimalToBytes, inflatePayload } from './secure-qr-bytes.js';
import { parseSecureQrFields, type SecureQrFields } from './secure-qr-fields.js';
import { splitSecureQr, type SecureQrVersion } from './secure-qr-layout.js';

export { SecureQrError, type SecureQrErrorCode } from './secure-qr-error.js';
export type { SecureQrFields } from './secure-qr-fields.js';
export type { SecureQrVersion } from './secure-qr-layout.js';

export interface SecureQrPayload {
  readonly version: SecureQrVersion;
  readonly fields: SecureQrFields;
  /** Everything before the signature, as decompressed: what UIDAI signed. */
  readonly signedData: Buffer;
  /** The last 256 bytes: an RSA-2048 PKCS#1 v1.5 SHA-256 signature, in natural byte order. */
  readonly signature: Buffer;
}

/** Throws SecureQrError (messages never quote the payload). */
export function decodeSecureQr(text: string): SecureQrPayload {
  const layout = splitSecureQr(inflatePayload(decimalToBytes(text)));
  return {
    version: layout.version,
    fields: parseSecureQrFields(layout),
    signedData: layout.signedData,
    signature: layout.signature,
  };
}
