import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GLOBAL_FORMATS, INDIAN_FORMATS, type RasterPage } from '../../src/documents/document.js';
import { DocumentError } from '../../src/domain/errors.js';
import { intake } from '../../src/documents/intake.js';
import { sniffFormat } from '../../src/documents/sniff.js';
import * as fixtures from '../helpers/fixtures.js';

const limits = { maxPixels: 10_000_000, maxPages: 10 };

function pixel(page: RasterPage, x: number, y: number): number[] {
  const at = (y * page.width + x) * page.channels;
  return [...page.pixels.subarray(at, at + 3)];
}

describe('intake', () => {
  it('sniffs every accepted format from its magic bytes', async () => {
    assert.equal(sniffFormat(await fixtures.jpeg()), 'jpeg');
    assert.equal(sniffFormat(await fixtures.png()), 'png');
    assert.equal(sniffFormat(await fixtures.webp()), 'webp');
    assert.equal(sniffFormat(await fixtures.tiff()), 'tiff');
    assert.equal(sniffFormat(fixtures.bmp()), 'bmp');
    assert.equal(sniffFormat(fixtures.pdf()), 'pdf');
    assert.equal(sniffFormat(Buffer.concat([Buffer.from('junk\n'), fixtures.pdf()])), 'pdf');
    assert.equal(sniffFormat(Buffer.from('GIF89a....')), null);
    assert.equal(sniffFormat(Buffer.from([0xff, 0xd8])), null);
  });

  it('decodes images to upright sRGB pixels', async () => {
    const doc = await intake(await fixtures.png({ width: 40, height: 20 }), 'a.png', {
      accepted: INDIAN_FORMATS,
      ...limits,
    });
    const [page] = doc.pages;
    assert.ok(page?.kind === 'raster');
    assert.deepEqual([page.width, page.height, page.channels], [40, 20, 3]);
    assert.deepEqual(pixel(page, 2, 10), [255, 0, 0]);
    assert.deepEqual(pixel(page, 37, 10), [0, 0, 255]);
    assert.equal(page.reoriented, false);
  });

  it('applies the EXIF orientation of a phone photo', async () => {
    // Orientation 6: the stored image is shown rotated 90 degrees clockwise.
    const doc = await intake(await fixtures.jpeg({ width: 60, height: 20 }, 6), 'p.jpg', {
      accepted: INDIAN_FORMATS,
      ...limits,
    });
    const [page] = doc.pages;
    assert.ok(page?.kind === 'raster');
    assert.deepEqual([page.width, page.height], [20, 60]);
    assert.equal(page.reoriented, true);
    const [topR, , topB] = pixel(page, 10, 5);
    const [bottomR, , bottomB] = pixel(page, 10, 55);
    assert.ok((topR ?? 0) > 200 && (topB ?? 255) < 60, 'the red half is now on top');
    assert.ok((bottomB ?? 0) > 200 && (bottomR ?? 255) < 60, 'the blue half is now below');
  });

  it('decodes BMP through MuPDF with the same pixel layout', async () => {
    const doc = await intake(fixtures.bmp(8, 4), 'a.bmp', { accepted: GLOBAL_FORMATS, ...limits });
    const [page] = doc.pages;
    assert.ok(page?.kind === 'raster');
    assert.deepEqual([page.width, page.height], [8, 4]);
    assert.deepEqual(pixel(page, 0, 0), [255, 0, 0]);
    assert.deepEqual(pixel(page, 7, 3), [0, 0, 255]);
  });

  it('refuses a BMP cut short, which MuPDF would otherwise pad out', async () => {
    const whole = fixtures.bmp(64, 64);
    await assert.rejects(
      intake(whole.subarray(0, Math.floor(whole.length / 2)), 'a.bmp', {
        accepted: GLOBAL_FORMATS,
        ...limits,
      }),
      (error: unknown) => error instanceof DocumentError && error.code === 'truncated_file',
    );
  });

  it('opens PDFs with their page sizes in points', async () => {
    const doc = await intake(fixtures.pdf({ pages: 3 }), 'a.pdf', {
      accepted: INDIAN_FORMATS,
      ...limits,
    });
    try {
      assert.equal(doc.pages.length, 3);
      assert.deepEqual(
        doc.pages.map((p) => [p.kind, p.width, p.height]),
        [
          ['pdf', 595, 842],
          ['pdf', 595, 842],
          ['pdf', 595, 842],
        ],
      );
      assert.ok(doc.pdf);
    } finally {
      doc.dispose();
      doc.dispose();
    }
  });

  it('fails with typed errors', async () => {
    const attempt = (bytes: Buffer) => intake(bytes, 'x', { accepted: INDIAN_FORMATS, ...limits });
    const code = async (bytes: Buffer) => {
      try {
        await attempt(bytes);
        return 'accepted';
      } catch (error) {
        assert.ok(error instanceof DocumentError);
        return error.code;
      }
    };
    assert.equal(await code(Buffer.alloc(0)), 'empty_file');
    assert.equal(await code(await fixtures.webp()), 'unsupported_file_type');
    assert.equal(await code(fixtures.pdf({ pages: 11 })), 'too_many_pages');
    assert.equal(await code(fixtures.pdf({ userPassword: 'x' })), 'pdf_encrypted');
  });
});
