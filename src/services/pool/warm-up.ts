/**
 * A worker's first documents run cold: each thread compiles MuPDF's WebAssembly and JITs the
 * pipeline for itself, and its first few documents took up to 2.5 times as long as later ones
 * (a 20-page text PDF through /redact-pii: 4.6 s, then 1.8 s). The pool sends each worker a few
 * synthetic documents at start-up, through the same services, so that clients never pay for it.
 */
import sharp from 'sharp';
import { mupdf } from '../../documents/mupdf.js';
import type { ServiceContext } from '../context.js';
import { inProcessServices } from '../document-services.js';

/** A two-page text PDF with a number on it (nothing real: a Verhoeff-valid made-up value). */
function textPdf(): Buffer {
  const doc = new mupdf.PDFDocument();
  try {
    const font = doc.addSimpleFont(new mupdf.Font('Helvetica'));
    for (let page = 0; page < 2; page += 1) {
      const resources = doc.addObject({ Font: { F1: font } });
      const contents = 'BT /F1 14 Tf 72 720 Td (Warm-up page, reference 2345 6789 0124) Tj ET';
      doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, contents));
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
  await services.redactPii(pdf, { types: ['aadhaar', 'pan', 'phone_in', 'email'] });
  await services.maskAadhaar(pdf, { outputFormat: 'same', maskQr: 'xml' });
  await services.maskAadhaar(image, { outputFormat: 'same', maskQr: 'xml' });
  await services.redactGlobal(pdf, {
    rules: [],
    countries: [],
    mode: 'box',
    maskKeep: 4,
    stripMetadata: true,
  });
}
