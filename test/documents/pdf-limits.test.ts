import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { constants, deflateRawSync, deflateSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { INDIAN_FORMATS } from '../../src/documents/document.js';
import { DocumentError } from '../../src/domain/errors.js';
import { intake, type IntakeOptions } from '../../src/documents/intake.js';
import { mupdf } from '../../src/documents/mupdf.js';
import { openPdf } from '../../src/documents/pdf.js';
import { checkPdfStructure, DEFAULT_PDF_LIMITS } from '../../src/documents/pdf-limits.js';
import { readPdfPageOnce, renderPdfPage } from '../../src/documents/render.js';
import { decodedSize } from '../../src/documents/stream-filters.js';
import * as fixtures from '../helpers/fixtures.js';

const options: IntakeOptions = { accepted: INDIAN_FORMATS, maxPixels: 60_000_000, maxPages: 200 };
const MiB = 1024 * 1024;

/**
 * A zlib stream of `mebibytes` MiB of spaces, built in milliseconds: one MiB deflated at level
 * 9 and ended with a full flush (so it refers to nothing before it) is repeated, then the stream
 * is closed with an empty final block and the Adler-32 of the whole, computed in closed form.
 */
function deflatedSpaces(mebibytes: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(MiB, 0x20), {
    level: 9,
    finishFlush: constants.Z_FULL_FLUSH,
  });
  const n = BigInt(mebibytes * MiB);
  const mod = 65521n;
  const a = (1n + 32n * n) % mod;
  const b = (n + (32n * n * (n + 1n)) / 2n) % mod;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((b << 16n) | a));
  const blocks = Array.from({ length: mebibytes }, () => block);
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...blocks, Buffer.from([0x03, 0x00]), adler]);
}

/** A one-page PDF; `setUp` adds objects and returns the page's resources and content. */
function pdfOf(
  setUp: (doc: mupdf.PDFDocument) => {
    resources?: unknown;
    contents?: string;
    page?: (page: mupdf.PDFObject) => void;
  },
  mediabox: [number, number, number, number] = [0, 0, 595, 842],
): Buffer {
  const doc = new mupdf.PDFDocument();
  const { resources = {}, contents = '', page: edit } = setUp(doc);
  const page = doc.addPage(mediabox, 0, doc.addObject(resources), contents);
  edit?.(page);
  doc.insertPage(-1, page);
  const buffer = doc.saveToBuffer('');
  const bytes = Buffer.from(buffer.asUint8Array());
  buffer.destroy();
  doc.destroy();
  return bytes;
}

/** A page whose content stream is `raw`, with the given filters. */
function contentBomb(raw: Buffer, filters: string[]): Buffer {
  return pdfOf((doc) => ({
    page: (page) => {
      page.put('Contents', doc.addRawStream(raw, { Filter: filters }));
    },
  }));
}

/** Forms nested `depth` deep, each drawing the next; the last draws a square. */
function nestedForms(depth: number): Buffer {
  return pdfOf((doc) => {
    let inner = doc.addStream('0 0 10 10 re f', {
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [0, 0, 10, 10],
    });
    for (let level = 1; level < depth; level += 1) {
      inner = doc.addStream('/F Do', {
        Type: 'XObject',
        Subtype: 'Form',
        BBox: [0, 0, 10, 10],
        Resources: { XObject: { F: inner } },
      });
    }
    return { resources: { XObject: { F: inner } }, contents: '/F Do' };
  });
}

/** Runs `work`, expects a DocumentError with `code` whose message names `setting`; returns ms. */
async function refuses(work: () => unknown, code: string, setting: string): Promise<number> {
  const start = performance.now();
  await assert.rejects(
    async () => {
      await work();
    },
    (error: unknown) => {
      assert.ok(error instanceof DocumentError, String(error));
      assert.equal(error.code, code);
      assert.match(error.message, new RegExp(setting));
      return true;
    },
  );
  return performance.now() - start;
}

/** A structure that refers back to itself (or nests too deep) is refused at intake. */
const refusesNesting = (file: Buffer) =>
  refuses(() => intake(file, 'a.pdf', options), 'nesting_too_deep', 'PARDA_MAX_PDF_NESTING');

describe('PDF structure limits', () => {
  it('refuses a page content of 1 GiB of spaces as content_too_large, quickly', async (t) => {
    const bomb = deflatedSpaces(1024);
    const ms = await refuses(
      () => intake(contentBomb(bomb, ['FlateDecode']), 'bomb.pdf', options),
      'content_too_large',
      'PARDA_MAX_PDF_STREAM_MB',
    );
    t.diagnostic(`1 GiB Flate bomb (${bomb.length} bytes) refused in ${ms.toFixed(0)} ms`);
  });

  it('follows a chain of two Flate filters (4 GiB through double Flate)', async (t) => {
    const bomb = deflateSync(deflatedSpaces(4096), { level: 9 });
    const ms = await refuses(
      () => intake(contentBomb(bomb, ['FlateDecode', 'FlateDecode']), 'bomb.pdf', options),
      'content_too_large',
      'PARDA_MAX_PDF_STREAM_MB',
    );
    t.diagnostic(`4 GiB double-Flate bomb (${bomb.length} bytes) refused in ${ms.toFixed(0)} ms`);
  });

  it('counts both layers of a double Flate stream against the budget', async () => {
    // 64 MiB after two layers, 64 KiB after one: only the second layer crosses 63 MiB.
    const file = contentBomb(deflateSync(deflatedSpaces(64)), ['FlateDecode', 'FlateDecode']);
    await refuses(
      () => intake(file, 'a.pdf', { ...options, maxPdfStreamBytes: 63 * MiB }),
      'content_too_large',
      'PARDA_MAX_PDF_STREAM_MB',
    );
    const document = await intake(file, 'a.pdf', { ...options, maxPdfStreamBytes: 65 * MiB });
    document.dispose();
  });

  it('refuses a 40000 x 40000 image XObject as image_too_large before decoding it', async () => {
    const file = pdfOf((doc) => {
      const image = doc.addRawStream(deflateSync(Buffer.alloc(1000)), {
        Type: 'XObject',
        Subtype: 'Image',
        Width: 40000,
        Height: 40000,
        ColorSpace: 'DeviceGray',
        BitsPerComponent: 8,
        Filter: 'FlateDecode',
      });
      return { resources: { XObject: { Im: image } }, contents: 'q 500 0 0 500 0 0 cm /Im Do Q' };
    });
    await refuses(
      () => intake(file, 'a.pdf', options),
      'image_too_large',
      'PARDA_MAX_IMAGE_MEGAPIXELS',
    );
  });

  it('refuses a tiling pattern whose resources refer to itself as nesting_too_deep', async (t) => {
    const file = pdfOf((doc) => {
      const pattern = doc.addStream('/Pattern cs /P scn 0 0 10 10 re f', {
        Type: 'Pattern',
        PatternType: 1,
        PaintType: 1,
        TilingType: 1,
        BBox: [0, 0, 10, 10],
        XStep: 10,
        YStep: 10,
      });
      pattern.put('Resources', { Pattern: { P: pattern } });
      return {
        resources: { Pattern: { P: pattern } },
        contents: '/Pattern cs /P scn 0 0 100 100 re f',
      };
    });
    assert.ok(file.length < 2000, `${file.length} bytes`);
    const ms = await refuses(
      () => intake(file, 'a.pdf', options),
      'nesting_too_deep',
      'PARDA_MAX_PDF_NESTING',
    );
    t.diagnostic(`self-referencing pattern refused in ${ms.toFixed(1)} ms`);
  });

  it('refuses a form XObject that draws itself', async () => {
    const file = pdfOf((doc) => {
      const form = doc.addStream('/F Do', {
        Type: 'XObject',
        Subtype: 'Form',
        BBox: [0, 0, 10, 10],
      });
      form.put('Resources', { XObject: { F: form } });
      return { resources: { XObject: { F: form } }, contents: '/F Do' };
    });
    await refusesNesting(file);
  });

  it('refuses forms nested deeper than the limit, and accepts them within it', async () => {
    await refuses(
      () => intake(nestedForms(13), 'a.pdf', options),
      'nesting_too_deep',
      'PARDA_MAX_PDF_NESTING',
    );
    await refuses(
      () => intake(nestedForms(5), 'a.pdf', { ...options, maxPdfNesting: 4 }),
      'nesting_too_deep',
      'PARDA_MAX_PDF_NESTING',
    );
    const document = await intake(nestedForms(12), 'a.pdf', options);
    document.dispose();
  });

  it('refuses a Type3 font whose glyphs use the font itself', async () => {
    const file = pdfOf((doc) => {
      const glyph = doc.addStream('0 0 0 0 0 0 d1 BT /T 1 Tf (a) Tj ET', {});
      const font = doc.addObject({
        Type: 'Font',
        Subtype: 'Type3',
        FontBBox: [0, 0, 1, 1],
        FontMatrix: [1, 0, 0, 1, 0, 0],
        CharProcs: { a: glyph },
        Encoding: { Type: 'Encoding', Differences: [97, 'a'] },
        FirstChar: 97,
        LastChar: 97,
        Widths: [1],
      });
      font.put('Resources', { Font: { T: font } });
      return { resources: { Font: { T: font } }, contents: 'BT /T 12 Tf (a) Tj ET' };
    });
    await refusesNesting(file);
  });

  it('refuses an annotation appearance that draws itself', async () => {
    const file = pdfOf((doc) => {
      const appearance = doc.addStream('/A Do', {
        Type: 'XObject',
        Subtype: 'Form',
        BBox: [0, 0, 10, 10],
      });
      appearance.put('Resources', { XObject: { A: appearance } });
      const annotation = doc.addObject({
        Type: 'Annot',
        Subtype: 'Square',
        Rect: [0, 0, 10, 10],
        AP: { N: appearance },
      });
      return {
        page: (page) => {
          page.put('Annots', [annotation]);
        },
      };
    });
    await refusesNesting(file);
  });

  it('refuses more objects than PARDA_MAX_PDF_OBJECTS allows', async () => {
    const file = pdfOf((doc) => {
      for (let i = 0; i < 50; i += 1) doc.addObject({ N: i });
      return {};
    });
    await refuses(
      () => intake(file, 'a.pdf', { ...options, maxPdfObjects: 40 }),
      'too_many_objects',
      'PARDA_MAX_PDF_OBJECTS',
    );
  });

  it('decodes LZW, RunLength, ASCIIHex and ASCII85 under the budget', () => {
    // The PDF reference's LZW example: "-----A---B".
    const lzw = Buffer.from([0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01]);
    assert.equal(decodedSize(lzw, [{ name: 'LZWDecode' }], 100), 10);
    assert.equal(
      decodedSize(Buffer.from([2, 65, 66, 67, 129, 0, 128]), [{ name: 'RL' }], 1e6),
      131,
    );
    assert.throws(
      () => decodedSize(Buffer.from([129, 0, 129, 0]), [{ name: 'RunLengthDecode' }], 200),
      /OverBudget/,
    );
    assert.equal(decodedSize(Buffer.from('41 42 4>'), [{ name: 'ASCIIHexDecode' }], 100), 3);
    const a85 = Buffer.from('87cURD]i,"Ebo80~>'); // "Hello world!"
    assert.equal(decodedSize(a85, [{ name: 'ASCII85Decode' }], 100), 12);
    // ASCII85 around Flate, as many producers write content streams.
    const wrapped = Buffer.from(`${toAscii85(deflateSync(Buffer.alloc(5000, 0x20)))}~>`);
    assert.equal(decodedSize(wrapped, [{ name: 'A85' }, { name: 'Fl' }], 1e6), 5000);
    assert.throws(
      () => decodedSize(wrapped, [{ name: 'A85' }, { name: 'Fl' }], 4999),
      /OverBudget/,
    );
  });

  it('measures what a damaged Flate stream yields before the damage', () => {
    const whole = deflateSync(Buffer.alloc(8 * MiB, 0x20));
    const damaged = Buffer.concat([whole.subarray(0, whole.length - 8), Buffer.from('garbage!')]);
    assert.throws(() => decodedSize(damaged, [{ name: 'FlateDecode' }], 4 * MiB), /OverBudget/);
    assert.ok(decodedSize(damaged, [{ name: 'FlateDecode' }], 16 * MiB) > 7 * MiB);
  });

  it('still opens ordinary PDFs, and prices the check on a 50-page one', async (t) => {
    for (const file of [
      fixtures.pdf({ pages: 3 }),
      fixtures.pdfWithLines([[{ text: 'Line', x: 72, y: 720 }]]),
    ]) {
      const document = await intake(file, 'a.pdf', options);
      assert.equal(document.format, 'pdf');
      document.dispose();
    }
    const locked = await intake(fixtures.pdf({ userPassword: 'pw' }), 'a.pdf', {
      ...options,
      pdfPassword: 'pw',
    });
    locked.dispose();

    const fifty = fiftyPages();
    const opened = openPdf(fifty, { maxPages: 200 });
    try {
      const runs = Array.from({ length: 5 }, () => {
        const start = performance.now();
        checkPdfStructure(opened.pdf, DEFAULT_PDF_LIMITS, opened.pages.length);
        return performance.now() - start;
      });
      t.diagnostic(
        `pre-check on a 50-page PDF (${(fifty.length / MiB).toFixed(1)} MB, text, font, one image a page): ` +
          runs.map((ms) => ms.toFixed(1)).join(', ') +
          ' ms',
      );
    } finally {
      opened.pdf.destroy();
    }
  });
});

describe('PDF page area at render time', () => {
  const cases: [string, Buffer][] = [
    ['a 200 x 200 inch page', pdfOf(() => ({}), [0, 0, 14400, 14400])],
    [
      'a page with /UserUnit 75',
      pdfOf(
        () => ({
          page: (page) => {
            page.put('UserUnit', 75);
          },
        }),
        [0, 0, 612, 792],
      ),
    ],
    ['a 1e9 pt MediaBox', pdfOf(() => ({}), [0, 0, 1e9, 1e9])],
  ];
  for (const [name, file] of cases) {
    it(`refuses to render ${name} as page_too_large`, async (t) => {
      const document = await intake(file, 'a.pdf', options);
      try {
        const pdf = document.pdf;
        assert.ok(pdf);
        const ms = await refuses(
          () => renderPdfPage(pdf, 0, 150),
          'page_too_large',
          'PARDA_MAX_IMAGE_MEGAPIXELS',
        );
        await refuses(() => renderPdfPage(pdf, 0, 72), 'page_too_large', 'Page 1 ');
        t.diagnostic(`refused in ${ms.toFixed(1)} ms`);
      } finally {
        document.dispose();
      }
    });
  }

  it('uses the pixel limit intake opened the PDF with', async () => {
    // A4 at 300 dpi is 8.7 megapixels.
    const document = await intake(fixtures.pdf(), 'a.pdf', { ...options, maxPixels: 8_000_000 });
    try {
      const pdf = document.pdf;
      assert.ok(pdf);
      await refuses(
        () => renderPdfPage(pdf, 0, 300),
        'page_too_large',
        'PARDA_MAX_IMAGE_MEGAPIXELS',
      );
      assert.equal(renderPdfPage(pdf, 0, 200).width, Math.ceil((595 * 200) / 72));
    } finally {
      document.dispose();
    }
  });

  it('turns a MuPDF failure on a page into corrupt_file naming the page', async () => {
    const document = await intake(fixtures.pdf({ pages: 2 }), 'a.pdf', options);
    const pdf = document.pdf;
    assert.ok(pdf);
    try {
      // A page MuPDF fails to load: the failure surfaces as a 422 code, not a raw error.
      await refuses(() => readPdfPageOnce(pdf, 5, () => null), 'corrupt_file', 'Page 6 ');
      await refuses(() => renderPdfPage(pdf, 5, 72), 'corrupt_file', 'Page 6 ');
    } finally {
      document.dispose();
    }
  });
});

function toAscii85(bytes: Buffer): string {
  let out = '';
  for (let at = 0; at < bytes.length; at += 4) {
    const chunk = Buffer.alloc(4);
    bytes.copy(chunk, 0, at, at + 4);
    let value = chunk.readUInt32BE();
    const digits: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      digits.unshift(String.fromCharCode(33 + (value % 85)));
      value = Math.floor(value / 85);
    }
    out += digits.join('').slice(0, Math.min(4, bytes.length - at) + 1);
  }
  return out;
}

/** 50 A4 pages, each with 40 lines of Helvetica and a 600 x 800 grey Flate image. */
function fiftyPages(): Buffer {
  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font('Helvetica'));
  let seed = 7;
  const noise = Buffer.alloc(600 * 800);
  for (let i = 0; i < noise.length; i += 1) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    noise[i] = 128 + ((seed >> 16) % 64);
  }
  for (let p = 0; p < 50; p += 1) {
    const image = doc.addRawStream(deflateSync(noise), {
      Type: 'XObject',
      Subtype: 'Image',
      Width: 600,
      Height: 800,
      ColorSpace: 'DeviceGray',
      BitsPerComponent: 8,
      Filter: 'FlateDecode',
    });
    const lines = Array.from(
      { length: 40 },
      (_, l) => `BT /F1 10 Tf 72 ${800 - l * 18} Td (Line ${l} of page ${p}) Tj ET`,
    );
    const contents = doc.addRawStream(
      deflateSync(`q 200 0 0 260 300 400 cm /Im Do Q\n${lines.join('\n')}`),
      {
        Filter: 'FlateDecode',
      },
    );
    const page = doc.addPage(
      [0, 0, 595, 842],
      0,
      doc.addObject({ Font: { F1: font }, XObject: { Im: image } }),
      '',
    );
    page.put('Contents', contents);
    doc.insertPage(-1, page);
  }
  const buffer = doc.saveToBuffer('');
  const bytes = Buffer.from(buffer.asUint8Array());
  buffer.destroy();
  doc.destroy();
  return bytes;
}
