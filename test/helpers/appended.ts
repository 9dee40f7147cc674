/**
 * Payloads an attacker appends after a file's end marker (a ZIP, an HTML script, a shell
 * script), each carrying its own random marker, which must appear in no output.
 */
import crypto from 'node:crypto';

export interface Appended {
  readonly bytes: Buffer;
  readonly markers: readonly string[];
}

/** A ZIP local file header (`PK\x03\x04`) whose stored file holds the marker. */
function zipEntry(marker: string): Buffer {
  const name = Buffer.from('payload.txt');
  const data = Buffer.from(marker);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(data.length, 22);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, name, data]);
}

export function withAppended(file: Buffer): Appended {
  const [zip, html, shell] = [0, 1, 2].map(() => `M${crypto.randomBytes(12).toString('hex')}`);
  if (!zip || !html || !shell) throw new Error('no markers');
  const payload = Buffer.concat([
    zipEntry(zip),
    Buffer.from(`<html><script>alert("${html}")</script></html>\n`),
    Buffer.from(`#!/bin/sh\necho ${shell}\n`),
  ]);
  return { bytes: Buffer.concat([file, payload]), markers: [zip, html, shell] };
}

/** The markers found in `output`, as raw bytes or in any common text encoding. */
export function markersIn(output: Buffer, markers: readonly string[]): string[] {
  const latin1 = output.toString('latin1');
  return markers.filter((m) => latin1.includes(m) || output.includes(Buffer.from(m, 'utf16le')));
}

/** Whether a PDF ends with `%%EOF` and at most one end of line. */
export const endsAtEof = (pdf: Buffer): boolean =>
  /%%EOF(\r\n|\r|\n)?$/.test(pdf.subarray(-16).toString('latin1'));
