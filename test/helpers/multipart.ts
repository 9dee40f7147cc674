/** Builds multipart/form-data bodies for app.inject and raw HTTP requests. */
import crypto from 'node:crypto';

export interface FilePart {
  readonly name: string;
  readonly filename: string;
  readonly content: Buffer;
  readonly contentType?: string;
}

export type Part = FilePart | { readonly name: string; readonly value: string };

export function multipart(parts: readonly Part[]): { body: Buffer; contentType: string } {
  const boundary = `----parda${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('content' in part) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.content,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function fileUpload(content: Buffer, filename = 'document.bin', extra: Part[] = []) {
  return multipart([{ name: 'file', filename, content }, ...extra]);
}
