import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mupdf } from '../../src/documents/mupdf.js';
import { readPdfTextLayer } from '../../src/documents/pdf-text.js';
import { readsExports, stextLines, walkedLines } from '../../src/documents/stext-lines.js';
import { pdfWithContents } from '../helpers/fixtures.js';

/**
 * One page: text at four orientations (text matrices), two sizes, a second text object far
 * below (another block), a filled rectangle (line art) and an empty text object.
 */
function mixedPage(): Buffer {
  return pdfWithContents([
    [
      'BT /F1 12 Tf 1 0 0 1 60 760 Tm (IBAN GB82 WEST 1234 5698 7654 32) Tj ET',
      'BT /F1 9 Tf 1 0 0 1 60 740 Tm (small print, 536-22-1234) Tj ET',
      'BT /F1 12 Tf 0 1 -1 0 300 400 Tm (turned a quarter) Tj ET',
      'BT /F1 12 Tf -1 0 0 -1 500 300 Tm (upside down) Tj ET',
      'BT /F1 12 Tf 0 -1 1 0 100 500 Tm (turned back) Tj ET',
      '0.5 g 60 100 200 40 re f',
      'BT /F1 12 Tf 1 0 0 1 60 80 Tm () Tj ET',
      'BT /F1 14 Tf 1 0 0 1 60 60 Tm (Card 4111 1111 1111 1111) Tj ET',
    ].join('\n'),
  ]);
}

function withStext<T>(bytes: Buffer, read: (text: mupdf.StructuredText) => T): T {
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  const page = doc.loadPage(0);
  const text = page.toStructuredText('preserve-whitespace');
  try {
    return read(text);
  } finally {
    text.destroy();
    page.destroy();
    doc.destroy();
  }
}

describe('stextLines', () => {
  it('reads the pinned MuPDF.js build through its WebAssembly exports, not walk', () => {
    assert.equal(readsExports, true);
  });

  it('gives exactly what walk gives: every line, direction, character and quad', () => {
    const [fast, walked] = withStext(mixedPage(), (text) => [stextLines(text), walkedLines(text)]);
    assert.deepEqual(fast, walked);
    const texts = fast.map((line) => line.chars.map((c) => c.text).join(''));
    for (const expected of [
      'IBAN GB82 WEST 1234 5698 7654 32',
      'small print, 536-22-1234',
      'turned a quarter',
      'upside down',
      'turned back',
      'Card 4111 1111 1111 1111',
    ]) {
      assert.ok(texts.includes(expected), expected);
    }
    const directions = fast.map((line) => line.direction.map(Math.round).join(','));
    for (const d of ['1,0', '0,-1', '-1,0', '0,1']) assert.ok(directions.includes(d), d);
  });

  it('places each character where it is printed, in page coordinates (y down)', () => {
    const lines = withStext(mixedPage(), stextLines);
    const iban = lines.find((l) =>
      l.chars
        .map((c) => c.text)
        .join('')
        .startsWith('IBAN'),
    );
    assert.ok(iban);
    const [tl, tr, br, bl] = iban.chars[0]?.quad ?? [];
    assert.ok(tl && tr && br && bl);
    // The baseline at y = 842 - 760 = 82 in a top-left space, the first glyph at x = 60.
    assert.ok(Math.abs(tl.x - 60) < 0.01 && Math.abs(bl.x - 60) < 0.01);
    assert.ok(tl.y < 82 && bl.y > 82 && bl.y < 86, `${tl.y} ${bl.y}`);
    assert.ok(tr.x > tl.x && Math.abs(tr.y - tl.y) < 0.01 && Math.abs(br.y - bl.y) < 0.01);
  });

  it('gives the text layer its lines by orientation', () => {
    const doc = mupdf.Document.openDocument(mixedPage(), 'application/pdf').asPDF();
    assert.ok(doc);
    try {
      const layer = readPdfTextLayer(doc, 0);
      const orientationOf = (text: string) =>
        layer.lines.find((line) => line.text === text)?.orientation;
      assert.equal(orientationOf('IBAN GB82 WEST 1234 5698 7654 32'), 0);
      assert.equal(orientationOf('turned a quarter'), 270);
      assert.equal(orientationOf('upside down'), 180);
      assert.equal(orientationOf('turned back'), 90);
      assert.ok(layer.lines.every((line) => line.chars.length === line.text.length));
    } finally {
      doc.destroy();
    }
  });
});
