import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { metadataPresent } from '../../../src/documents/metadata.js';
import { mupdf } from '../../../src/documents/mupdf.js';
import { renderPdfPage } from '../../../src/documents/render.js';
import { imagesToPdf } from '../../../src/documents/writers.js';
import { simpleCard } from '../../helpers/cards.js';
import { backends } from '../../helpers/databases.js';
import { encodeBmp, pdfWithLines } from '../../helpers/fixtures.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { tiffPages } from '../../fixtures/hostile/image-writers.js';
import { fileUpload, multipart, type Part } from '../../helpers/multipart.js';

const [sqlite] = backends();
if (!sqlite) throw new Error('no sqlite backend');

const IBAN = 'GB82 WEST 1234 5698 7654 32';
const OTHER_IBAN = 'DE89 3704 0044 0532 0130 00';
const EMAIL = 'jane.doe@mailbox.co.uk';
/** The size of a page directory written by tiffPages (nine entries). */
const IFD_SIZE = 2 + 9 * 12 + 4;

/** Each page's text, in reading order, whitespace folded. */
function pagesText(bytes: Buffer): string[] {
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  const pages: string[] = [];
  for (let i = 0; i < doc.countPages(); i += 1) {
    const page = doc.loadPage(i);
    const structured = page.toStructuredText('preserve-whitespace');
    pages.push(structured.asText().replace(/\s+/g, ' ').trim());
    structured.destroy();
    page.destroy();
  }
  doc.destroy();
  return pages;
}

/** A two-page statement with an author; the same IBAN on both pages. */
function statement(first = IBAN, second = OTHER_IBAN): Buffer {
  const bytes = pdfWithLines([
    [
      { text: `Pay to IBAN ${first} by Friday.`, x: 72, y: 760 },
      { text: `Questions to ${EMAIL} please.`, x: 72, y: 730 },
      { text: `Second account ${second} closed.`, x: 72, y: 700 },
    ],
    [{ text: `Repeat: IBAN ${first} confirmed.`, x: 72, y: 760 }],
  ]);
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF();
  assert.ok(doc);
  doc.setMetaData('info:Author', 'A. Clerk');
  const out = Buffer.from(doc.saveToBuffer('compress').asUint8Array());
  doc.destroy();
  return out;
}

describe('POST /api/v1/global/redact', () => {
  let t: TestApp;
  let key: string;
  let keyId: string;
  before(async () => {
    t = await startTestApp(sqlite);
    ({ key, id: keyId } = await t.newKey({ monthlyQuota: 100 }));
  });
  after(() => t.close());

  const redact = (bytes: Buffer, filename: string, extra: Part[] = []) => {
    const form = fileUpload(bytes, filename, extra);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/global/redact',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
  };
  const used = async () => (await t.store.quota(await t.store.getKey(keyId))).used;

  it('boxes the values out of a PDF: their text gone, every other word kept, metadata stripped', async () => {
    const before = await used();
    const res = await redact(statement(), 'statement.pdf');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.match(String(res.headers['content-disposition']), /statement_redacted\.pdf/);
    assert.equal(res.headers['x-entities-found'], '4');
    assert.equal(res.headers['x-entity-types'], 'IBAN,EMAIL');
    const [one, two] = pagesText(res.rawPayload);
    assert.equal(one, 'Pay to IBAN by Friday. Questions to please. Second account closed.');
    assert.equal(two, 'Repeat: IBAN confirmed.');
    const doc = mupdf.Document.openDocument(res.rawPayload, 'application/pdf').asPDF();
    assert.ok(doc);
    assert.deepEqual(
      await metadataPresent({
        filename: 'x.pdf',
        format: 'pdf',
        bytes: res.rawPayload,
        pages: [],
        pdf: doc,
        dispose: () => undefined,
      }),
      [],
    );
    doc.destroy();
    assert.equal(await used(), before + 1);
  });

  it('draws tokens in place, the same value the same token on every page', async () => {
    const input = statement();
    const res = await redact(input, 'statement.pdf', [{ name: 'mode', value: 'token' }]);
    assert.equal(res.statusCode, 200, res.body);
    const [one, two] = pagesText(res.rawPayload);
    // The other words in their order; the tokens (drawn after them) as text too.
    assert.equal(
      one,
      'Pay to IBAN by Friday. Questions to please. Second account closed. [IBAN_1] [EMAIL_1] [IBAN_2]',
    );
    assert.equal(two, 'Repeat: IBAN confirmed. [IBAN_1]');
    // Each token stands where its value stood.
    const where = (bytes: Buffer, page: number, needle: string) => {
      const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
      const hit = doc.loadPage(page).search(needle, '')[0]?.[0];
      doc.destroy();
      assert.ok(hit, needle);
      return { x: hit[0], y: hit[1] };
    };
    for (const [page, value, token] of [
      [0, IBAN, '[IBAN_1]'],
      [0, EMAIL, '[EMAIL_1]'],
      [1, IBAN, '[IBAN_1]'],
    ] as const) {
      const before = where(input, page, value);
      const after = where(res.rawPayload, page, token);
      assert.ok(Math.abs(before.x - after.x) < 2 && Math.abs(before.y - after.y) < 4, token);
    }
    // Another document, the values in the other order: the tokens do not link them (the
    // first IBAN above is [IBAN_2] there, on the third line).
    const swappedInput = statement(OTHER_IBAN, IBAN);
    const swapped = await redact(swappedInput, 's.pdf', [{ name: 'mode', value: 'token' }]);
    const place = where(swappedInput, 0, IBAN);
    const token = where(swapped.rawPayload, 0, '[IBAN_2]');
    assert.ok(Math.abs(place.y - token.y) < 4, 'the same IBAN, another token');
  });

  it('masks and pseudonymises in place; pseudonyms differ between documents', async () => {
    const masked = await redact(statement(), 's.pdf', [
      { name: 'mode', value: 'mask' },
      { name: 'mask_keep', value: '2' },
    ]);
    assert.equal(
      pagesText(masked.rawPayload)[1],
      'Repeat: IBAN confirmed. **** **** **** **** **** 32',
    );
    const first = pagesText(
      (await redact(statement(), 's.pdf', [{ name: 'mode', value: 'pseudonym' }])).rawPayload,
    );
    const second = pagesText(
      (await redact(statement(), 's.pdf', [{ name: 'mode', value: 'pseudonym' }])).rawPayload,
    );
    const standIn = /(GB00 [A-Z]{4} \d{4} \d{4} \d{4} \d{2})/;
    const a = standIn.exec(first[0] ?? '')?.[1];
    assert.ok(a, first[0]);
    assert.equal(standIn.exec(first[1] ?? '')?.[1], a, 'the same stand-in on page 2');
    assert.notEqual(standIn.exec(second[0] ?? '')?.[1], a, 'another document, another stand-in');
    assert.ok(!first.join(' ').includes(IBAN));
  });

  it('keeps metadata with strip_metadata=false, and answers JSON with response_mode=json', async () => {
    const res = await redact(statement(), 's.pdf', [
      { name: 'strip_metadata', value: 'false' },
      { name: 'response_mode', value: 'json' },
    ]);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json<{
      filename: string;
      content_type: string;
      entities_found: number;
      entity_types: string[];
      file_base64: string;
      report: { summary: Record<string, number>; metadata_present: string[]; quota: object };
    }>();
    assert.equal(body.filename, 's_redacted.pdf');
    assert.equal(body.content_type, 'application/pdf');
    assert.equal(body.entities_found, 4);
    assert.deepEqual(body.entity_types, ['IBAN', 'EMAIL']);
    assert.deepEqual(body.report.summary, { IBAN: 3, EMAIL: 1 });
    assert.ok(body.report.metadata_present.includes('author'));
    const pdf = Buffer.from(body.file_base64, 'base64');
    const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
    assert.equal(doc.getMetaData('info:Author'), 'A. Clerk');
    doc.destroy();
    assert.ok(!JSON.stringify(body.report).includes('WEST'));
  });

  it('covers or blurs the values of an image, strips its GPS, and refuses blur on a PDF', async () => {
    const card = await simpleCard({ lines: ['Payment details', `IBAN ${IBAN}`] });
    const withGps = await sharp(card.bytes)
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '12/1 58/1 0/1' } })
      .jpeg({ quality: 95 })
      .toBuffer();
    for (const mode of ['box', 'blur', 'token']) {
      const res = await redact(withGps, 'photo.jpg', [{ name: 'mode', value: mode }]);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'image/jpeg');
      assert.equal(res.headers['x-entity-types'], 'IBAN');
      const meta = await sharp(res.rawPayload).metadata();
      assert.equal(meta.exif, undefined, `${mode}: no EXIF left`);
      // Read again, the output holds no IBAN.
      const again = await redact(res.rawPayload, 'again.jpg', [
        { name: 'response_mode', value: 'json' },
      ]);
      assert.equal(again.json<{ entities_found: number }>().entities_found, 0, mode);
    }
    const blurPdf = await redact(statement(), 's.pdf', [{ name: 'mode', value: 'blur' }]);
    assert.equal(blurPdf.statusCode, 422);
    assert.equal(blurPdf.json<{ error: string }>().error, 'invalid_mode');
  });

  it('rewrites annotation contents and form field values too', async () => {
    const doc = mupdf.Document.openDocument(
      pdfWithLines([[{ text: 'Application form', x: 72, y: 760 }]]),
      'application/pdf',
    ).asPDF();
    assert.ok(doc);
    const page = doc.loadPage(0) as mupdf.PDFPage;
    const note = page.createAnnotation('FreeText');
    note.setRect([72, 100, 400, 130]);
    note.setContents(`Checked IBAN ${IBAN} with the client`);
    note.update();
    page.destroy();
    // A text field by hand: a widget annotation on the page and in the AcroForm.
    const field = doc.addObject({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Tx',
      T: 'ssn',
      V: 'SSN 536-22-1234',
      Rect: [72, 200, 300, 220],
      F: 4,
    });
    const pageObject = doc.findPage(0);
    const annots = pageObject.get('Annots');
    annots.push(field);
    field.put('P', pageObject);
    const form = doc.newDictionary();
    const fields = doc.newArray();
    fields.push(field);
    form.put('Fields', fields);
    doc.getTrailer().get('Root').put('AcroForm', form);
    const bytes = Buffer.from(doc.saveToBuffer('').asUint8Array());
    doc.destroy();

    const upload = fileUpload(bytes, 'f.pdf');
    const detected = await t.app.inject({
      method: 'POST',
      url: '/api/v1/global/detect',
      headers: { 'x-api-key': key, 'content-type': upload.contentType },
      payload: upload.body,
    });
    assert.equal(detected.statusCode, 200, detected.body);
    const report = detected.json<{ summary: Record<string, number> }>();
    assert.deepEqual(report.summary, { IBAN: 1, US_SSN: 1 });

    const res = await redact(bytes, 'form.pdf', [{ name: 'mode', value: 'token' }]);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-entities-found'], '2');
    const out = mupdf.Document.openDocument(res.rawPayload, 'application/pdf').asPDF();
    assert.ok(out);
    const outPage = out.loadPage(0) as mupdf.PDFPage;
    assert.deepEqual(
      outPage
        .getAnnotations()
        .filter((a) => a.getType() === 'FreeText')
        .map((a) => a.getContents()),
      ['Checked IBAN [IBAN_1] with the client'],
    );
    assert.deepEqual(
      outPage.getWidgets().map((w) => w.getValue()),
      ['SSN [US_SSN_1]'],
    );
    outPage.destroy();
    out.destroy();
  });

  it('OCRs a scanned PDF page and takes the value out of its image pixels', async () => {
    const text = mupdf.Document.openDocument(
      pdfWithLines([[{ text: `Pay to IBAN ${IBAN} today.`, x: 72, y: 760, size: 14 }]]),
      'application/pdf',
    ).asPDF();
    assert.ok(text);
    const scanned = await imagesToPdf([renderPdfPage(text, 0, 200)], [200]);
    text.destroy();
    for (const mode of ['box', 'token']) {
      const res = await redact(scanned, 'scan.pdf', [{ name: 'mode', value: mode }]);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['x-entities-found'], '1', mode);
      // Read again (OCR of the output), no IBAN is left.
      const again = await redact(res.rawPayload, 'again.pdf', [
        { name: 'response_mode', value: 'json' },
      ]);
      assert.equal(again.json<{ entities_found: number }>().entities_found, 0, mode);
      if (mode === 'token') assert.match(pagesText(res.rawPayload)[0] ?? '', /\[IBAN_1\]/);
    }
  });

  it('opens what readers open: an owner password only, attachments-only encryption, bytes before the header', async () => {
    const saved = (bytes: Buffer, options: string) => {
      const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF();
      assert.ok(doc);
      const out = Buffer.from(doc.saveToBuffer(options).asUint8Array());
      doc.destroy();
      return out;
    };
    // AES-256 with an owner password and an empty user password: it opens without one.
    const ownerOnly = saved(statement(), 'encrypt=aes-256,owner-password=owner-secret');
    assert.match(ownerOnly.toString('latin1'), /\/Encrypt/);
    // Only embedded files encrypted (/EFF): the owner-only file's keys, strings and streams in
    // the clear (Identity), as a PDF writer that protects its attachments alone saves it.
    const keys = mupdf.Document.openDocument(ownerOnly, 'application/pdf').asPDF();
    const plain = mupdf.Document.openDocument(statement(), 'application/pdf').asPDF();
    assert.ok(keys && plain);
    const encrypt = plain.newDictionary();
    for (const key of ['Filter', 'V', 'R', 'Length', 'O', 'U', 'OE', 'UE', 'Perms', 'P']) {
      encrypt.put(key, keys.getTrailer().get('Encrypt').get(key));
    }
    const filter = plain.newDictionary();
    filter.put('AuthEvent', plain.newName('EFOpen'));
    filter.put('CFM', plain.newName('AESV3'));
    filter.put('Length', 32);
    const filters = plain.newDictionary();
    filters.put('StdCF', filter);
    encrypt.put('CF', filters);
    encrypt.put('StmF', plain.newName('Identity'));
    encrypt.put('StrF', plain.newName('Identity'));
    encrypt.put('EFF', plain.newName('StdCF'));
    plain.getTrailer().put('Encrypt', plain.addObject(encrypt));
    const attachmentsOnly = Buffer.from(plain.saveToBuffer('').asUint8Array());
    keys.destroy();
    plain.destroy();
    assert.match(attachmentsOnly.toString('latin1'), /\/EFF\s*\/StdCF/);
    // 1,000 bytes of a mail header before %PDF-: readers skip them.
    const junk = Buffer.from(`X-Mailer: scan\r\n${'x'.repeat(982)}\r\n`, 'latin1');
    assert.equal(junk.length, 1000);
    const prefixed = Buffer.concat([junk, statement()]);

    for (const [name, bytes] of [
      ['owner-only.pdf', ownerOnly],
      ['attachments-only.pdf', attachmentsOnly],
      ['prefixed.pdf', prefixed],
    ] as const) {
      const res = await redact(bytes, name);
      assert.equal(res.statusCode, 200, `${name}: ${res.body}`);
      assert.equal(res.headers['x-entities-found'], '4', name);
      assert.deepEqual(
        pagesText(res.rawPayload),
        [
          'Pay to IBAN by Friday. Questions to please. Second account closed.',
          'Repeat: IBAN confirmed.',
        ],
        name,
      );
    }
    // Past the first 1,024 bytes the file is no PDF.
    const far = await redact(Buffer.concat([junk, junk, statement()]), 'far.pdf');
    assert.equal(far.json<{ error: string }>().error, 'unsupported_file_type');
  });

  it('keeps an OCR cover off the line printed right below the value', async () => {
    // 11 pt lines 11 pt apart: the next line's ascenders almost touch the value's line.
    const lines = [
      `Please pay the balance to IBAN ${IBAN} by Friday.`,
      'the quick brown fox jumps over the lazy dog again and again',
    ];
    const text = mupdf.Document.openDocument(
      pdfWithLines([lines.map((line, i) => ({ text: line, x: 60, y: 700 - i * 11, size: 11 }))]),
      'application/pdf',
    ).asPDF();
    assert.ok(text);
    const scan = await imagesToPdf([renderPdfPage(text, 0, 200)], [200]);
    text.destroy();
    const res = await redact(scan, 'scan.pdf');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-entities-found'], '1');
    const again = await redact(res.rawPayload, 'again.pdf', [
      { name: 'response_mode', value: 'json' },
    ]);
    assert.equal(again.json<{ entities_found: number }>().entities_found, 0);
    // The second line's band (its x-height and ascenders, in points from the top) is as it was.
    const page = (bytes: Buffer) => {
      const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF();
      assert.ok(doc);
      const pixels = renderPdfPage(doc, 0, 100);
      doc.destroy();
      return pixels;
    };
    const [before, after] = [page(scan), page(res.rawPayload)];
    const scale = 100 / 72;
    let changed = 0;
    let total = 0;
    for (let y = Math.round((842 - 689 - 9) * scale); y <= (842 - 689 + 2) * scale; y += 1) {
      for (let x = Math.round(60 * scale); x < 500 * scale; x += 1) {
        const at = (y * before.width + x) * 3;
        total += 1;
        if (Math.abs((before.pixels[at] ?? 0) - (after.pixels[at] ?? 0)) > 80) changed += 1;
      }
    }
    assert.ok(changed / total < 0.005, `${changed} of ${total} pixels of the line below changed`);
  });

  it('redacts every frame of a TIFF, and WEBP and BMP (written back as PNG); keeps EXIF on request', async () => {
    const first = await simpleCard({ lines: [`IBAN ${IBAN}`] });
    const second = await simpleCard({ lines: [`Write to ${EMAIL}`] });
    const tiff = await sharp([first.bytes, second.bytes], { join: { animated: true } })
      .tiff()
      .toBuffer();
    const res = await redact(tiff, 'scan.tiff');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'image/tiff');
    assert.equal(res.headers['x-entity-types'], 'IBAN,EMAIL');
    assert.equal((await sharp(res.rawPayload).metadata()).pages, 2);
    const again = await redact(res.rawPayload, 'again.tiff', [
      { name: 'response_mode', value: 'json' },
    ]);
    assert.equal(again.json<{ entities_found: number }>().entities_found, 0);

    const webp = await sharp(first.bytes).webp({ quality: 95 }).toBuffer();
    const webpOut = await redact(webp, 'note.webp');
    assert.equal(webpOut.headers['content-type'], 'image/webp');
    assert.equal(webpOut.headers['x-entities-found'], '1');

    const raw = await sharp(first.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const bmp = encodeBmp(raw.data, raw.info.width, raw.info.height);
    const bmpOut = await redact(bmp, 'note.bmp');
    assert.equal(bmpOut.statusCode, 200, bmpOut.body);
    assert.equal(bmpOut.headers['content-type'], 'image/png');
    assert.match(String(bmpOut.headers['content-disposition']), /note_redacted\.png/);
    assert.equal(bmpOut.headers['x-entities-found'], '1');
    // A BMP has no metadata to keep: strip_metadata=false changes nothing (it was a 500).
    const bmpKept = await redact(bmp, 'note.bmp', [{ name: 'strip_metadata', value: 'false' }]);
    assert.equal(bmpKept.statusCode, 200, bmpKept.body);
    assert.ok(bmpKept.rawPayload.equals(bmpOut.rawPayload));

    const withGps = await sharp(first.bytes)
      .withExif({ IFD0: { Artist: 'Someone' }, IFD3: { GPSLatitudeRef: 'N' } })
      .jpeg()
      .toBuffer();
    const kept = await redact(withGps, 'photo.jpg', [{ name: 'strip_metadata', value: 'false' }]);
    assert.equal(kept.headers['x-entities-found'], '1');
    const meta = await sharp(kept.rawPayload).metadata();
    assert.ok(meta.exif, 'EXIF kept');
    assert.equal(meta.orientation ?? 1, 1);
  });

  it('turns a page into an image when its value will not leave the content stream', async () => {
    // Page 1 (shown turned a quarter) carries the IBAN only as the /ActualText of other glyphs:
    // redacting the glyphs leaves it in the text; page 2 is an ordinary page.
    const doc = new mupdf.PDFDocument();
    const font = doc.addSimpleFont(new mupdf.Font('Helvetica'));
    const resources = doc.addObject({ Font: { F1: font } });
    const carried =
      `/Span <</ActualText (IBAN ${IBAN})>> BDC BT /F1 14 Tf 72 700 Td (ref 0000 0000) Tj ET EMC ` +
      'BT /F1 14 Tf 72 650 Td (Kept words below) Tj ET';
    const first = doc.addPage([0, 0, 595, 842], 90, resources, carried);
    doc.insertPage(-1, first);
    const plain = `BT /F1 14 Tf 72 700 Td (Pay ${OTHER_IBAN} today) Tj ET`;
    doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, plain));
    const bytes = Buffer.from(doc.saveToBuffer('').asUint8Array());
    doc.destroy();

    const res = await redact(bytes, 'carried.pdf');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-entities-found'], '2');
    assert.equal(res.headers['x-rasterised-pages'], '1');
    const [one, two] = pagesText(res.rawPayload);
    assert.equal(one, '', 'the rasterised page holds no text');
    assert.equal(two, 'Pay today', 'the other page keeps its own text');
    const out = mupdf.Document.openDocument(res.rawPayload, 'application/pdf');
    const bounds = out.loadPage(0).getBounds();
    out.destroy();
    // The page keeps the size it was shown at: A4 turned a quarter.
    assert.deepEqual(
      bounds.map((v) => Math.round(v)),
      [0, 0, 842, 595],
    );

    const json = await redact(bytes, 'carried.pdf', [{ name: 'response_mode', value: 'json' }]);
    assert.deepEqual(json.json<{ rasterised_pages: number[] }>().rasterised_pages, [1]);
    const ordinary = await redact(statement(), 'statement.pdf');
    assert.equal(ordinary.headers['x-rasterised-pages'], undefined);
  });

  it('redacts a TIFF of unlike pages with its metadata kept; refuses a looping page chain', async () => {
    const card = await simpleCard({ lines: [`IBAN ${IBAN}`] });
    const grey = await sharp(card.bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
    const { width, height } = grey.info;
    const colour = await sharp(card.bytes).removeAlpha().raw().toBuffer();
    // Page 1 greyscale, page 2 RGB: libvips cannot load these as one strip (it was a 500).
    const unlike = tiffPages([
      { width, height, pixels: grey.data },
      { width, height, pixels: colour, channels: 3 },
    ]);
    const res = await redact(unlike, 'unlike.tiff', [{ name: 'strip_metadata', value: 'false' }]);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-entities-found'], '2');
    assert.equal((await sharp(res.rawPayload).metadata()).pages, 2);

    const before = await used();
    // The second page's directory points back at the first.
    const looping = Buffer.from(unlike);
    const secondPage = 8 + IFD_SIZE + grey.data.length;
    looping.writeUInt32LE(8, secondPage + IFD_SIZE - 4);
    const refused = await redact(looping, 'loop.tiff');
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json<{ error: string }>().error, 'tiff_ifd_loop');
    assert.equal(await used(), before);
  });

  it('returns the file written anew with the same text, uncharged, when nothing is found', async () => {
    const before = await used();
    const plain = pdfWithLines([[{ text: 'Nothing personal here.', x: 72, y: 760 }]]);
    const res = await redact(plain, 'plain.pdf', [{ name: 'strip_metadata', value: 'false' }]);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-entities-found'], '0');
    assert.deepEqual(pagesText(res.rawPayload), pagesText(plain));
    assert.match(String(res.headers['content-disposition']), /plain\.pdf/);
    assert.equal(await used(), before);
  });

  it('batch: one entry per file, a bad file failing only its own, charged per redacted file', async () => {
    const before = await used();
    const form = multipart([
      { name: 'files', filename: 'a.pdf', content: statement() },
      { name: 'files', filename: 'b.pdf', content: Buffer.from('%PDF-1.7 broken') },
      {
        name: 'files',
        filename: 'c.pdf',
        content: pdfWithLines([[{ text: 'Nothing here.', x: 72, y: 760 }]]),
      },
      { name: 'mode', value: 'token' },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/global/batch/redact',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json<{
      submitted: number;
      redacted: number;
      nothing_found: number;
      failed: number;
      documents_charged: number;
      results: { index: number; status: string; error?: string; file_base64?: string }[];
    }>();
    // The counts are keyed by the statuses, as in the bulk manifests.
    const { submitted, redacted, nothing_found, failed, documents_charged } = body;
    assert.deepEqual(
      { submitted, redacted, nothing_found, failed, documents_charged },
      { submitted: 3, redacted: 1, nothing_found: 1, failed: 1, documents_charged: 1 },
    );
    assert.deepEqual(
      body.results.map((r) => [r.index, r.status, r.error ?? null]),
      [
        [1, 'redacted', null],
        [2, 'error', 'truncated_file'],
        [3, 'nothing_found', null],
      ],
    );
    const first = Buffer.from(body.results[0]?.file_base64 ?? '', 'base64');
    assert.match(pagesText(first)[0] ?? '', /\[IBAN_1\]/);
    assert.equal(await used(), before + 1);
  });
});
