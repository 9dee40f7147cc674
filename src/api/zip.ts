/** Builds the bulk response: a ZIP streamed with yazl, the manifest last. */
import yazl from 'yazl';

export interface ZipEntry {
  readonly name: string;
  readonly bytes: Buffer;
}

export function zipStream(entries: readonly ZipEntry[]): NodeJS.ReadableStream {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    // JPEG and PDF content is already compressed; deflating it again only costs time.
    const compress = !/\.(jpe?g|pdf|png)$/i.test(entry.name);
    zip.addBuffer(entry.bytes, entry.name, { compress, mtime: new Date(0) });
  }
  zip.end();
  return zip.outputStream;
}
