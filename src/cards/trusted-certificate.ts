/**
 * A certificate trusted to sign Secure QRs, identified by its SHA-256 fingerprint: UIDAI has
 * reused a subject CN ("... INDIA 05") for two different keys from two CAs, so names cannot
 * identify a key (UIDAI's QR specification).
 */
import crypto, { type KeyObject, type X509Certificate } from 'node:crypto';

export interface TrustedCertificate {
  /** Where it came from (a file name): safe to log and report. */
  readonly label: string;
  /** SHA-256 over the DER encoding, lowercase hex, as `openssl x509 -fingerprint -sha256`. */
  readonly fingerprint256: string;
  readonly publicKey: KeyObject;
}

export class CertificateError extends Error {
  override name = 'CertificateError';
}

/** Every UIDAI document-signer key is RSA-2048; anything else cannot have signed a QR. */
export function isRsa2048(key: KeyObject): boolean {
  return key.asymmetricKeyType === 'rsa' && key.asymmetricKeyDetails?.modulusLength === 2048;
}

export function fingerprint256(certificate: X509Certificate): string {
  return crypto.createHash('sha256').update(certificate.raw).digest('hex');
}

/** Refuses keys that could not sign a Secure QR, so a misconfiguration shows at start-up. */
export function trustCertificate(certificate: X509Certificate, label: string): TrustedCertificate {
  const publicKey = certificate.publicKey;
  if (!isRsa2048(publicKey)) throw new CertificateError(`${label}: key is not RSA-2048`);
  return { label, fingerprint256: fingerprint256(certificate), publicKey };
}
