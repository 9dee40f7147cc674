/**
 * Why a scanned Secure QR text could not be decoded. Codes are stable (callers map them to
 * verdicts and API errors); messages say what was wrong with the shape of the data and never
 * quote it, because the payload carries a name, a birth date and an address.
 */
export type SecureQrErrorCode =
  /** Not a decimal integer: some other QR, or a mangled scan. */
  | 'not_numeric'
  /** More digits than any QR symbol can hold: refused before the costly base conversion. */
  | 'too_long'
  /** The bytes are neither a gzip member nor a zlib stream. */
  | 'not_compressed'
  /** Inflates past the cap: a decompression bomb, or not a Secure QR. */
  | 'too_large'
  /** Compressed, but truncated or not laid out as UIDAI's QR specification describes. */
  | 'malformed'
  /** A `V<digit>` payload whose layout we do not know. */
  | 'unsupported_version';

export class SecureQrError extends Error {
  override name = 'SecureQrError';
  constructor(
    readonly code: SecureQrErrorCode,
    message: string,
  ) {
    super(message);
  }
}
