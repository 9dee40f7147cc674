/** Hand-made PNG headers, for files no encoder would produce (a decompression bomb). */
import zlib from 'node:zlib';

import { crc32 } from './crc32.js';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A tiny PNG whose header claims width x height pixels of greyscale. */
export function pngClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The PNG with a tEXt chunk (`key`, `value`) after its header: sharp writes none. */
export function withPngText(png: Buffer, key: string, value: string): Buffer {
  const headerEnd = 8 + 8 + 13 + 4; // signature, IHDR length/type, IHDR data, CRC
  const text = chunk('tEXt', Buffer.from(`${key}\u0000${value}`, 'latin1'));
  return Buffer.concat([png.subarray(0, headerEnd), text, png.subarray(headerEnd)]);
}
