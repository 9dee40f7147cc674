/**
 * The verification verdict (README, Verification response and its outcome rules) from
 * what was established about a card: its QR, the QR's signature, the printed-versus-signed
 * comparison and the Verhoeff check. Nothing here carries a name, a date or a number.
 *
 *   fail    the signature did not verify under any trusted key, or a printed field
 *           contradicts the signed one;
 *   review  nothing contradicts the card but something could not be established: no QR, an
 *           unreadable or unsupported QR, no trusted certificate configured, a printed number
 *           failing Verhoeff, or too little printed text read to compare (the last four digits
 *           and at least one more field);
 *   pass    everything else: QR decoded, signature valid, every compared field the same.
 */
import type { CrossCheck, MismatchId } from './crosscheck.js';
import type { SignatureCheck } from './qr-signature.js';
import { MIN_PIXELS_PER_MODULE } from './qr-resolution.js';

export type Verdict = 'pass' | 'review' | 'fail';

export type QrStatus =
  /** A Secure QR was read and its payload decoded. */
  | 'decoded'
  /** No QR code on the document. */
  | 'not_found'
  /** A QR code is there but could not be read (too coarse, blurred, damaged). */
  | 'unreadable'
  /** Only the old unsigned XML QR: nothing in it is signed. */
  | 'unsigned_xml'
  /** A QR was read but is no Secure QR Parda decodes (signed XML, another QR, an unknown version). */
  | 'unsupported_format'
  /** A Secure QR whose payload does not decompress or parse: not as UIDAI writes them. */
  | 'invalid_payload';

export type SignalId =
  MismatchId | 'qr_signature_invalid' | 'aadhaar_checksum_invalid' | 'qr_resolution_low';

export interface Signal {
  readonly id: SignalId;
  readonly severity: 'high' | 'medium' | 'low';
  readonly detail: string;
}

export type CheckId =
  'qr_decoded' | 'qr_signature_verified' | 'printed_vs_signed_crosscheck' | 'aadhaar_checksum';

export interface VerificationReport {
  readonly verdict: Verdict;
  readonly rationale: string;
  readonly qr: {
    readonly status: QrStatus;
    /** `V1` (no version marker) to `V5`, when decoded. */
    readonly payload_version: string | null;
    /** Of the Secure QR, or of the best imaged QR when none decoded; null when not measured. */
    readonly pixels_per_module: number | null;
    readonly min_pixels_per_module: number;
  };
  readonly signature: {
    readonly status: 'valid' | 'not_verified';
    /** With `not_verified`: why. */
    readonly reason?: 'no_certificates' | 'signature_mismatch' | 'qr_not_decoded';
    /** With `valid`: SHA-256 fingerprint of the trusted certificate whose key verified it. */
    readonly certificate_sha256?: string;
  };
  readonly checks_performed: readonly { readonly id: CheckId; readonly result: boolean }[];
  readonly signals: readonly Signal[];
}

export interface VerificationFacts {
  readonly qrStatus: QrStatus;
  readonly payloadVersion: string | null;
  readonly pixelsPerModule: number | null;
  /** Null when no Secure QR was decoded. */
  readonly signature: SignatureCheck | null;
  /** Null when no Secure QR was decoded. */
  readonly crossCheck: CrossCheck | null;
  /** Verhoeff over the printed full number; null when no full number was read (a masked card). */
  readonly checksumValid: boolean | null;
}

const MISMATCH: Readonly<Record<MismatchId, Omit<Signal, 'id'>>> = {
  qr_name_mismatch: {
    severity: 'high',
    detail: 'The printed name differs from the name in the signed QR.',
  },
  qr_dob_mismatch: {
    severity: 'high',
    detail: 'The printed date or year of birth differs from the one in the signed QR.',
  },
  qr_aadhaar_last4_mismatch: {
    severity: 'high',
    detail: 'The last four printed digits differ from those of the signed reference id.',
  },
  qr_gender_mismatch: {
    severity: 'medium',
    detail: 'The printed gender differs from the one in the signed QR.',
  },
  qr_pincode_mismatch: {
    severity: 'medium',
    detail: 'The printed pincode differs from the one in the signed address.',
  },
};

const QR_UNDECODED: Readonly<Record<Exclude<QrStatus, 'decoded'>, string>> = {
  not_found: 'No QR code was found on the document',
  unreadable: 'The QR code could not be read',
  unsigned_xml: 'The document carries only the old unsigned XML QR code',
  unsupported_format: 'The QR code is not a Secure QR that can be checked',
  invalid_payload: 'The Secure QR payload is malformed',
};

const round2 = (n: number | null): number | null => (n === null ? null : Math.round(n * 100) / 100);

function signalsOf(facts: VerificationFacts): Signal[] {
  const signals: Signal[] = [];
  // A fail always names what failed: here, the signature itself.
  if (signatureForged(facts)) {
    signals.push({
      id: 'qr_signature_invalid',
      severity: 'high',
      detail: 'The QR signature does not verify under any trusted UIDAI certificate.',
    });
  }
  for (const id of facts.crossCheck?.mismatches ?? []) signals.push({ id, ...MISMATCH[id] });
  if (facts.checksumValid === false) {
    signals.push({
      id: 'aadhaar_checksum_invalid',
      severity: 'medium',
      detail: 'The printed twelve-digit number fails the Verhoeff check.',
    });
  }
  if (
    facts.qrStatus === 'unreadable' &&
    facts.pixelsPerModule !== null &&
    facts.pixelsPerModule < MIN_PIXELS_PER_MODULE
  ) {
    signals.push({
      id: 'qr_resolution_low',
      severity: 'low',
      detail: `The QR code was imaged below ${MIN_PIXELS_PER_MODULE} pixels per module; photograph or scan it closer.`,
    });
  }
  return signals;
}

function checksOf(facts: VerificationFacts): { id: CheckId; result: boolean }[] {
  const checks: { id: CheckId; result: boolean }[] = [
    { id: 'qr_decoded', result: facts.qrStatus === 'decoded' },
  ];
  if (facts.signature) {
    checks.push({ id: 'qr_signature_verified', result: facts.signature.status === 'valid' });
  }
  if (facts.crossCheck && facts.crossCheck.compared.length > 0) {
    checks.push({
      id: 'printed_vs_signed_crosscheck',
      result: facts.crossCheck.mismatches.length === 0,
    });
  }
  if (facts.checksumValid !== null) {
    checks.push({ id: 'aadhaar_checksum', result: facts.checksumValid });
  }
  return checks;
}

const signatureForged = ({ signature }: VerificationFacts): boolean =>
  signature?.status === 'not_verified' && signature.reason === 'signature_mismatch';

function judge(facts: VerificationFacts): { verdict: Verdict; rationale: string } {
  const { signature, crossCheck } = facts;
  if (signatureForged(facts)) {
    return {
      verdict: 'fail',
      rationale: 'The QR signature does not verify under any trusted UIDAI certificate.',
    };
  }
  const mismatches = crossCheck?.mismatches ?? [];
  if (mismatches.length > 0) {
    const fields =
      mismatches.length === 1 ? 'one printed field' : `${mismatches.length} printed fields`;
    return {
      verdict: 'fail',
      rationale: `The card's ${fields} contradict${mismatches.length === 1 ? 's' : ''} the data signed into its QR.`,
    };
  }
  if (facts.qrStatus !== 'decoded' || !signature || !crossCheck) {
    return {
      verdict: 'review',
      rationale: `${QR_UNDECODED[facts.qrStatus === 'decoded' ? 'invalid_payload' : facts.qrStatus]}, so the printed text could not be checked against signed data.`,
    };
  }
  if (signature.status !== 'valid') {
    return {
      verdict: 'review',
      rationale:
        'The printed text agrees with the QR, but no trusted certificate is configured to verify its signature.',
    };
  }
  if (facts.checksumValid === false) {
    return {
      verdict: 'review',
      rationale:
        'The QR signature is valid and the printed text agrees with it, but the printed number fails the Verhoeff check.',
    };
  }
  if (!crossCheck.compared.includes('last4') || crossCheck.compared.length < 2) {
    return {
      verdict: 'review',
      rationale:
        'The QR signature is valid, but too little of the printed card could be read to compare with it.',
    };
  }
  return {
    verdict: 'pass',
    rationale: `The QR signature is valid and the ${crossCheck.compared.length} printed fields read agree with the signed data.`,
  };
}

export function verificationReport(facts: VerificationFacts): VerificationReport {
  const { signature } = facts;
  return {
    ...judge(facts),
    qr: {
      status: facts.qrStatus,
      payload_version: facts.payloadVersion,
      pixels_per_module: round2(facts.pixelsPerModule),
      min_pixels_per_module: MIN_PIXELS_PER_MODULE,
    },
    signature: !signature
      ? { status: 'not_verified', reason: 'qr_not_decoded' }
      : signature.status === 'valid'
        ? { status: 'valid', certificate_sha256: signature.certificate.fingerprint256 }
        : { status: 'not_verified', reason: signature.reason },
    checks_performed: checksOf(facts),
    signals: signalsOf(facts),
  };
}
