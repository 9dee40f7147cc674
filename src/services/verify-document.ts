/**
 * Verifying an Aadhaar card against its Secure QR (README, POST /verify-document): the
 * card is read as for extraction, but its QR codes are read harder (each undecoded symbol
 * cropped, upscaled and read again), the Secure QR payload is decoded and its signature checked
 * against the trusted certificates, and the printed fields, as OCR read them and never
 * "confirmed" by the QR, are compared with the signed ones. Only the verdict and signals leave.
 */
import { crossCheck } from '../cards/crosscheck.js';
import type { QrSymbol } from '../cards/qr-scan.js';
import { verifySecureQrSignature, type SignatureCheck } from '../cards/qr-signature.js';
import { decodeSecureQr, SecureQrError, type SecureQrPayload } from '../cards/secure-qr.js';
import type { TrustedCertificate } from '../cards/uidai-certificates.js';
import { verificationReport, type QrStatus, type VerificationReport } from '../cards/verdict.js';
import { INDIAN_FORMATS, type Document } from '../documents/document.js';
import type { OcrEngine } from '../ocr/types.js';
import { readCardDocument } from './card-reading.js';
import { withDocument, type ServiceContext, type UploadedDocument } from './context.js';
import { aadhaarCardOf } from './extract-aadhaar.js';

export type { VerificationReport } from '../cards/verdict.js';
export { MIN_PIXELS_PER_MODULE } from '../cards/qr-resolution.js';

interface QrOutcome {
  readonly status: QrStatus;
  readonly payload: SecureQrPayload | null;
  /** The payload's signature check; null without a payload. */
  readonly signature: SignatureCheck | null;
  readonly pixelsPerModule: number | null;
}

const side = (s: QrSymbol): number =>
  Math.hypot(s.quad[1].x - s.quad[0].x, s.quad[1].y - s.quad[0].y);

/**
 * The Secure QR of the document, decoded; otherwise the most telling reason there is none, in
 * this order: a Secure QR that does not decode, an unreadable symbol (photograph again), the
 * unsigned XML QR, a QR of another kind, nothing at all. With several decodable Secure QRs (an
 * e-Aadhaar letter repeats the card's), the first whose signature verifies.
 */
/** No decoded payload: why, and how finely the most telling symbol was imaged. */
const undecoded = (status: QrStatus, symbol?: QrSymbol): QrOutcome => ({
  status,
  payload: null,
  signature: null,
  pixelsPerModule: symbol?.pixelsPerModule ?? null,
});

function secureQrOf(
  symbols: readonly QrSymbol[],
  certificates: readonly TrustedCertificate[],
): QrOutcome {
  let failed: QrOutcome | null = null;
  let first: QrOutcome | null = null;
  for (const symbol of symbols) {
    if (symbol.secureText === undefined) continue;
    try {
      const payload = decodeSecureQr(symbol.secureText);
      const signature = verifySecureQrSignature(payload, certificates);
      const outcome = {
        status: 'decoded' as const,
        payload,
        signature,
        pixelsPerModule: symbol.pixelsPerModule,
      };
      if (signature.status === 'valid') return outcome;
      first ??= outcome;
    } catch (error) {
      if (!(error instanceof SecureQrError)) throw error;
      const unknownVersion = error.code === 'unsupported_version';
      failed ??= undecoded(unknownVersion ? 'unsupported_format' : 'invalid_payload', symbol);
    }
  }
  if (first) return first;
  if (failed) return failed;
  const [largest] = symbols
    .filter((s) => s.kind === 'unreadable')
    .sort((a, b) => side(b) - side(a));
  if (largest) return undecoded('unreadable', largest);
  const xml = symbols.find((s) => s.kind === 'aadhaar_xml');
  if (xml) return undecoded('unsigned_xml', xml);
  const [other] = symbols;
  return other ? undecoded('unsupported_format', other) : undecoded('not_found');
}

export async function verifyDocument(
  document: Document,
  ocr: OcrEngine,
  pdfDpi: number,
  certificates: readonly TrustedCertificate[],
): Promise<VerificationReport> {
  const reading = await readCardDocument(document, ocr, pdfDpi, { rescue: true });
  const card = await aadhaarCardOf(reading, ocr);
  const qr = secureQrOf(reading.qrs, certificates);
  const payload = qr.payload;
  return verificationReport({
    qrStatus: qr.status,
    payloadVersion: payload ? payload.version : null,
    pixelsPerModule: qr.pixelsPerModule,
    signature: qr.signature,
    crossCheck: payload ? crossCheck(card, payload.fields) : null,
    checksumValid: card.number ? card.checksumValid : null,
  });
}

export async function verifyDocumentFile(
  context: ServiceContext,
  upload: UploadedDocument,
): Promise<VerificationReport> {
  const [ocr, certificates] = await Promise.all([context.ocr(), context.uidaiCertificates()]);
  return withDocument(context, upload, INDIAN_FORMATS, (document) =>
    verifyDocument(document, ocr, context.pdfOcrDpi, certificates),
  );
}
