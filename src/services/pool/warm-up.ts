/**
 * A worker's first documents run cold: each thread compiles MuPDF's WebAssembly and JITs the
 * pipeline for itself, and its first few documents took up to 2.5 times as long as later ones
 * (a 20-page text PDF through /redact-pii: 4.6 s, then 1.8 s). A two-page warm-up with one
 * number left workers still 20-30% slow on real documents, so the pool sends each worker a few
 * dense letter-like documents at start-up, through the same services and with every default
 * type (about 5 s of start-up on two cores), so that clients do not pay for it.
 */
import sharp from 'sharp';
import { mupdf } from '../../documents/mupdf.js';
import type { ServiceContext } from '../context.js';
import { inProcessServices } from '../document-services.js';
import { resolveEntityTypes } from '../global-options.js';
import { INDIAN_TYPE_NAMES } from '../../identifiers/in/redact-pii-rules.js';

/**
 * A few pages of letter-like prose in 10 pt type with identifiers among the lines, the shape
 * of the documents clients send, so that the code paths that matter are the ones warmed.
 * Every value is a well-known made-up test value (specimen PAN, test card, example IBAN); no
 * line holds a character that PDF strings would need escaped.
 */
const WARM_UP_PAGES = 4;
const WARM_UP_LINES = [
  'Customer reference: PAN ACUPA7085R, mobile +91 98765 43210, mail priya@example.in',
  'GSTIN 27AAPFU0939F1ZV, IFSC SBIN0000691, Aadhaar 4918 7362 5102, invoice 20420042',
  'IBAN GB82 WEST 1234 5698 7654 32, card 4111 1111 1111 1111, SSN 536-22-1234 on file',
  'The terms and conditions of the account continue here as plain prose, line after line.',
];

function textPdf(): Buffer {
  const doc = new mupdf.PDFDocument();
  try {
    const font = doc.addSimpleFont(new mupdf.Font('Helvetica'));
    for (let page = 0; page < WARM_UP_PAGES; page += 1) {
      const resources = doc.addObject({ Font: { F1: font } });
      const lines = Array.from({ length: 40 }, (_, i) => {
        const text = WARM_UP_LINES[i % WARM_UP_LINES.length] ?? '';
        return `BT /F1 10 Tf 50 ${800 - i * 18} Td (${text}) Tj ET`;
      });
      doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, lines.join('\n')));
    }
    const buffer = doc.saveToBuffer('garbage');
    try {
      return Buffer.from(buffer.asUint8Array());
    } finally {
      buffer.destroy();
    }
  } finally {
    doc.destroy();
  }
}

/** A small blank photo: exercises decoding, OCR round trips, QR search and encoding. */
function photo(): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 200, channels: 3, background: '#f4f4f4' } })
    .jpeg()
    .toBuffer();
}

export async function warmUp(context: ServiceContext): Promise<void> {
  const services = inProcessServices(context);
  const pdf = { bytes: textPdf(), filename: 'warm-up.pdf' };
  const image = { bytes: await photo(), filename: 'warm-up.jpg' };
  await services.redactPii(pdf, { types: INDIAN_TYPE_NAMES });
  await services.maskAadhaar(pdf, { outputFormat: 'same', maskQr: 'xml' });
  await services.maskAadhaar(image, { outputFormat: 'same', maskQr: 'xml' });
  await services.redactGlobal(pdf, {
    rules: resolveEntityTypes(undefined, []),
    countries: [],
    mode: 'box',
    maskKeep: 4,
    stripMetadata: true,
  });
}
