import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { GLOBAL_FORMATS, type FileFormat } from '../../src/documents/document.js';
import { intake } from '../../src/documents/intake.js';
import { rewriteImageKeepingMetadata } from '../../src/documents/metadata-strip.js';
import { mupdf } from '../../src/documents/mupdf.js';
import { savePdfOutput } from '../../src/documents/pdf-output.js';
import { rewriteDocument } from '../../src/documents/rewrite.js';
import { endsAtEof, markersIn, withAppended } from '../helpers/appended.js';
import * as fixtures from '../helpers/fixtures.js';

const open = (bytes: Buffer, filename: string) =>
  intake(bytes, filename, { accepted: GLOBAL_FORMATS, maxPixels: 4_000_000, maxPages: 10 });

const inputs: Record<FileFormat, () => Promise<Buffer> | Buffer> = {
  pdf: () => fixtures.pdf({ text: 'Plain text page' }),
  jpeg: () => fixtures.jpeg(),
  png: () => fixtures.png(),
  webp: () => fixtures.webp(),
  tiff: () => fixtures.tiff(),
  bmp: () => fixtures.bmp(),
};

/** Every string and stream of a PDF, decompressed: where a marker could hide. */
function pdfObjectsText(bytes: Buffer): string {
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF();
  assert.ok(doc);
  const parts: string[] = [];
  for (let i = 1; i < doc.countObjects(); i += 1) {
    // A stream is known by its reference: resolved, only its dictionary is left.
    const object = doc.newIndirect(i);
    parts.push(object.resolve().toString());
    if (object.isStream())
      parts.push(Buffer.from(object.readStream().asUint8Array()).toString('latin1'));
  }
  doc.destroy();
  return parts.join('\n');
}

describe('documents written back whole', () => {
  for (const [format, make] of Object.entries(inputs)) {
    for (const keepMetadata of [false, true]) {
      it(`rewrites a ${format} with bytes appended, without them (keepMetadata ${keepMetadata})`, async () => {
        const original = await make();
        const { bytes, markers } = withAppended(original);
        const document = await open(bytes, `input.${format}`);
        try {
          const written = await rewriteDocument(document, { keepMetadata });
          assert.deepEqual(markersIn(written.bytes, markers), []);
          assert.equal(written.format, format === 'bmp' ? 'png' : format);
          if (format === 'pdf') {
            assert.ok(endsAtEof(written.bytes));
            assert.equal(written.bytes.toString('latin1').match(/%%EOF/g)?.length, 1);
          } else if (format !== 'jpeg') {
            // Lossless: the very pixels intake decoded (by MuPDF for a BMP, by sharp otherwise).
            const [page] = document.pages;
            assert.ok(page?.kind === 'raster');
            const output = await sharp(written.bytes).raw().toBuffer({ resolveWithObject: true });
            assert.equal(output.info.channels, page.channels);
            assert.ok(output.data.equals(page.pixels));
          } else {
            const meta = await sharp(written.bytes).metadata();
            assert.equal(`${meta.width}x${meta.height}`, '64x32');
            assert.ok(written.bytes.subarray(-2).equals(Buffer.from([0xff, 0xd9])));
          }
        } finally {
          document.dispose();
        }
      });
    }
  }

  it('copies no PNG text chunk that lies after IEND, and keeps those before it', async () => {
    const chunk = (type: string, text: string) => {
      const data = Buffer.from(text, 'latin1');
      const out = Buffer.alloc(12 + data.length);
      out.writeUInt32BE(data.length, 0);
      out.write(type, 4, 'latin1');
      data.copy(out, 8);
      return out; // the CRC is not checked when copying
    };
    const png = await fixtures.png();
    const inside = Buffer.concat([
      png.subarray(0, 33),
      chunk('tEXt', 'Comment\0kept'),
      png.subarray(33),
    ]);
    const written = await rewriteImageKeepingMetadata(
      Buffer.concat([inside, chunk('tEXt', 'Comment\0Mafter1234')]),
      'png',
    );
    const text = written.bytes.toString('latin1');
    assert.ok(text.includes('Comment\0kept'));
    assert.ok(!text.includes('Mafter1234'));
    assert.equal(text.lastIndexOf('IEND'), written.bytes.length - 8);
  });
});

describe('savePdfOutput', () => {
  /** A PDF with an attachment, document scripts, automatic actions and a file annotation. */
  function activePdf(markers: { file: string; script: string; attachment: string }): Buffer {
    const doc = new mupdf.PDFDocument(fixtures.pdf());
    const when = new Date(0);
    const file = doc.addEmbeddedFile(
      'notes.txt',
      'text/plain',
      Buffer.from(markers.file),
      when,
      when,
    );
    doc.insertEmbeddedFile('notes.txt', file);
    const script = doc.addObject({
      S: doc.newName('JavaScript'),
      JS: doc.newString(`app.alert("${markers.script}")`),
    });
    const root = doc.getTrailer().get('Root');
    root.get('Names').put('JavaScript', doc.addObject({ Names: [doc.newString('init'), script] }));
    root.put('OpenAction', script);
    root.put('AA', doc.addObject({ WC: script }));
    const page = doc.loadPage(0);
    const attached = page.createAnnotation('FileAttachment');
    attached.setRect([10, 10, 30, 30]);
    attached.setFileSpec(
      doc.addEmbeddedFile('a.txt', 'text/plain', Buffer.from(markers.attachment), when, when),
    );
    attached.update();
    const uri = doc.addObject({
      S: doc.newName('URI'),
      URI: doc.newString('https://example.org/'),
    });
    const pageObject = page.getObject();
    pageObject.put('AA', doc.addObject({ O: script }));
    const annots = pageObject.get('Annots');
    for (const action of [script, uri]) {
      annots.push(
        doc.addObject({
          Type: doc.newName('Annot'),
          Subtype: doc.newName('Link'),
          Rect: [40, 40, 80, 60],
          A: action,
        }),
      );
    }
    page.destroy();
    const bytes = Buffer.from(doc.saveToBuffer('').asUint8Array());
    doc.destroy();
    return bytes;
  }

  it('drops embedded files, file annotations, scripts and automatic actions; keeps links', () => {
    const markers = { file: 'Mfile5f1e', script: 'Mscript77a2', attachment: 'Mattach90c1' };
    const input = activePdf(markers);
    assert.ok(pdfObjectsText(input).includes(markers.file), 'the fixture holds its payloads');
    const doc = new mupdf.PDFDocument(input);
    const output = savePdfOutput(doc);
    doc.destroy();

    const text = pdfObjectsText(output);
    for (const marker of Object.values(markers)) assert.ok(!text.includes(marker), marker);
    const out = new mupdf.PDFDocument(output);
    try {
      assert.deepEqual(out.getEmbeddedFiles(), {});
      const root = out.getTrailer().get('Root');
      for (const key of ['OpenAction', 'AA']) assert.ok(root.get(key).isNull(), key);
      assert.ok(root.get('Names', 'JavaScript').isNull());
      assert.ok(out.findPage(0).get('AA').isNull());
      // Links are not among MuPDF's annotations (they are its links): read the Annots array.
      const annots = out.findPage(0).get('Annots');
      const kept: string[] = [];
      annots.forEach((annot) => {
        kept.push(`${annot.get('Subtype').toString()} ${annot.get('A', 'S').toString()}`);
      });
      assert.deepEqual(kept, ['/Link null', '/Link /URI']);
      assert.ok(endsAtEof(output));
    } finally {
      out.destroy();
    }
  });
});
