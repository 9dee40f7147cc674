import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { GLOBAL_FORMATS } from '../../src/documents/document.js';
import { DocumentError } from '../../src/domain/errors.js';
import { intake } from '../../src/documents/intake.js';
import { tiffPageCount } from '../../src/documents/tiff-chain.js';
import { tiffPages } from '../fixtures/hostile/image-writers.js';

const IFD_SIZE = 2 + 9 * 12 + 4; // the hand-written pages' directory: nine entries
const limits = { accepted: GLOBAL_FORMATS, maxPixels: 10_000_000, maxPages: 10 };

function greyPage(width: number, height: number, shade: number) {
  return { width, height, pixels: Buffer.alloc(width * height, shade) };
}

/** Three hand-written pages; `nextOf(i)` overrides page i's next-directory offset. */
function chain(nextOf: (page: number, starts: readonly number[]) => number | undefined): Buffer {
  const pages = [greyPage(30, 20, 40), greyPage(50, 10, 120), greyPage(20, 20, 200)];
  const bytes = tiffPages(pages);
  const starts: number[] = [];
  let at = 8;
  for (const page of pages) {
    starts.push(at);
    at += IFD_SIZE + page.pixels.length;
  }
  starts.forEach((start, i) => {
    const next = nextOf(i, starts);
    if (next !== undefined) bytes.writeUInt32LE(next, start + IFD_SIZE - 4);
  });
  return bytes;
}

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof DocumentError) return error.code;
    throw error;
  }
  return undefined;
}

describe('TIFF page directory chain', () => {
  it('counts the pages of hand-written, sharp-written and BigTIFF files', async () => {
    assert.equal(
      tiffPageCount(
        chain(() => undefined),
        10,
      ),
      3,
    );
    const one = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
      .png()
      .toBuffer();
    const joined = await sharp([one, one, one, one], { join: { animated: true } })
      .tiff()
      .toBuffer();
    assert.equal(tiffPageCount(joined, 10), 4);
    const big = await sharp(one).tiff({ bigtiff: true }).toBuffer();
    assert.equal(big.readUInt16LE(2), 43, 'a BigTIFF');
    assert.equal(tiffPageCount(big, 10), 1);
    // Big-endian: the same walk with the other byte order.
    const motorola = Buffer.from([0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]);
    assert.equal(tiffPageCount(motorola, 10), 1);
    // Not a TIFF: left to the decoder.
    assert.equal(tiffPageCount(one, 10), 0);
  });

  it('stops counting past the page limit', () => {
    assert.equal(
      tiffPageCount(
        chain(() => undefined),
        1,
      ),
      2,
    );
  });

  it('refuses a chain that loops back, to itself or to an earlier page', () => {
    assert.equal(
      code(() =>
        tiffPageCount(
          chain((i, starts) => (i === 2 ? starts[0] : undefined)),
          10,
        ),
      ),
      'tiff_ifd_loop',
    );
    assert.equal(
      code(() =>
        tiffPageCount(
          chain((i, starts) => (i === 1 ? starts[1] : undefined)),
          10,
        ),
      ),
      'tiff_ifd_loop',
    );
  });

  it('refuses a directory past the end as truncated, and one inside the header as corrupt', () => {
    const past = chain((i) => (i === 0 ? 1_000_000 : undefined));
    assert.equal(
      code(() => tiffPageCount(past, 10)),
      'truncated_file',
    );
    const inHeader = chain((i) => (i === 1 ? 4 : undefined));
    assert.equal(
      code(() => tiffPageCount(inHeader, 10)),
      'corrupt_file',
    );
  });

  it('reads every page of a looping file nowhere, and a good file of unlike pages everywhere', async () => {
    const looping = chain((i, starts) => (i === 2 ? starts[1] : undefined));
    await assert.rejects(
      intake(looping, 'loop.tif', limits),
      (error: unknown) => error instanceof DocumentError && error.code === 'tiff_ifd_loop',
    );
    const good = await intake(
      chain(() => undefined),
      'pages.tif',
      limits,
    );
    assert.deepEqual(
      good.pages.map((p) => (p.kind === 'raster' ? [p.width, p.height] : [])),
      [
        [30, 20],
        [50, 10],
        [20, 20],
      ],
    );
  });
});
