/**
 * Checks a Secure QR's signature (UIDAI's QR specification): RSASSA-PKCS1-v1_5 with SHA-256 over
 * the decompressed bytes before the last 256, tried against every trusted key because UIDAI
 * rotates keys and old cards stay in circulation. Certificate validity dates are not checked:
 * they say when a key was current, not until when its signatures may be presented.
 *
 * "No key configured" and "no key verifies" are different answers: the first cannot judge the
 * QR (review), the second says no trusted key signed it (fail).
 */
import crypto from 'node:crypto';
import type { SecureQrPayload } from './secure-qr.js';
import { SIGNATURE_LENGTH } from './secure-qr-layout.js';
import { isRsa2048, type TrustedCertificate } from './trusted-certificate.js';

export type SignatureCheck =
  | {
      readonly status: 'valid';
      readonly certificate: Pick<TrustedCertificate, 'label' | 'fingerprint256'>;
    }
  | { readonly status: 'not_verified'; readonly reason: 'no_certificates' | 'signature_mismatch' };

function verifies(
  payload: Pick<SecureQrPayload, 'signedData' | 'signature'>,
  certificate: TrustedCertificate,
): boolean {
  try {
    return crypto
      .createVerify('sha256')
      .update(payload.signedData)
      .verify(
        { key: certificate.publicKey, padding: crypto.constants.RSA_PKCS1_PADDING },
        payload.signature,
      );
  } catch {
    // A signature OpenSSL cannot even parse is simply not a match.
    return false;
  }
}

export function verifySecureQrSignature(
  payload: Pick<SecureQrPayload, 'signedData' | 'signature'>,
  certificates: readonly TrustedCertificate[],
): SignatureCheck {
  // Checked again here, not only at loading: a hand-made TrustedCertificate could hold any key.
  // A set with no usable key cannot judge a QR, so it counts as no certificate at all.
  const usable = certificates.filter((certificate) => isRsa2048(certificate.publicKey));
  if (usable.length === 0) return { status: 'not_verified', reason: 'no_certificates' };
  if (payload.signature.length === SIGNATURE_LENGTH) {
    const match = usable.find((certificate) => verifies(payload, certificate));
    if (match) {
      return {
        status: 'valid',
        certificate: { label: match.label, fingerprint256: match.fingerprint256 },
      };
    }
  }
  return { status: 'not_verified', reason: 'signature_mismatch' };
}
