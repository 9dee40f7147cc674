import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asMrzRows, capitalisedCodes } from '../../src/detection/ocr-codes.js';
import type { Quad } from '../../src/domain/geometry.js';
import type { TextLine } from '../../src/domain/text-layer.js';
import { line as placed } from '../helpers/text-layer.js';

const quad = (x: number): Quad => [
  { x, y: 0 },
  { x: x + 1, y: 0 },
  { x: x + 1, y: 1 },
  { x, y: 1 },
];
const line = (text: string): TextLine => ({
  text,
  chars: Array.from(text, (c, i) => ({ text: c, quad: quad(i), confidence: 0.9 })),
  quad: quad(0),
  confidence: 0.9,
  orientation: 0,
});

describe('OCR repairs of codes', () => {
  it('capitalises look-alike lower-case letters in codes, and leaves prose alone', () => {
    assert.equal(
      capitalisedCodes('NI Ox412679D, IBAN IE44 AlBK 2210, BIC FxOziTT5'),
      'NI OX412679D, IBAN IE44 AIBK 2210, BIC FXOZITT5',
    );
    const prose = 'Berlin12 sent the Invoice to Mr Smith, ref 2024; see IoT docs';
    assert.equal(capitalisedCodes(prose), prose.replace('IoT', 'IOT'));
    // The same length, so every character keeps its box.
    assert.equal(capitalisedCodes('Ox412679D').length, 'Ox412679D'.length);
  });

  it('closes up MRZ rows (a space inside, × for X) and keeps their characters boxes', () => {
    const [row, prose] = asMrzRows([
      line('1<GBRYSV100 9612<<<<<<<<<<<<<<<'),
      line('Total 12 < 13'),
    ]);
    assert.ok(row && prose);
    assert.equal(row.text, '1<GBRYSV1009612<<<<<<<<<<<<<<<');
    assert.equal(row.chars.length, 30);
    assert.deepEqual(row.chars[11]?.quad, quad(12), 'the box of the 9 after the space');
    assert.equal(prose.text, 'Total 12 < 13');
    assert.equal(
      asMrzRows([line('I<AUS×DK9698121<<<<<<<<<<<<<<<')])[0]?.text,
      'I<AUSXDK9698121<<<<<<<<<<<<<<<',
    );
  });

  it('joins the pieces the detector cut an MRZ row into, and nothing else', () => {
    // Measured on a scanned passport page: a row's fillers found as boxes of their own, one of
    // them read upside down (">>>" turned 180 degrees), with fillers missed between.
    const upsideDown: TextLine = {
      ...placed('>>>', { x: 853, y: 609, charWidth: 20, height: 19 }),
      orientation: 180,
    };
    const turned = ([a, b, c, d]: Quad): Quad => [c, d, a, b];
    const flipped: TextLine = {
      ...upsideDown,
      quad: turned(upsideDown.quad),
      chars: upsideDown.chars.map((c) => ({ ...c, quad: turned(c.quad) })).reverse(),
    };
    const rows = asMrzRows([
      placed('Date of expiry', { x: 470, y: 560, charWidth: 11, height: 26 }),
      placed('P<ITADUBOIS<<JOHN<<<<<<', { x: 67, y: 605, charWidth: 19.7, height: 26 }),
      placed('<<<<<<<<<<<', { x: 610, y: 609, charWidth: 19.4, height: 19 }),
      flipped,
      placed('AK7271507517A7005266M2703176<<<<<<<<<<<<<<06', { x: 68, y: 637, charWidth: 19.2 }),
    ]);
    assert.deepEqual(
      rows.map((r) => r.text),
      [
        'Date of expiry',
        'P<ITADUBOIS<<JOHN<<<<<<<<<<<<<<<<<<<<',
        'AK7271507517A7005266M2703176<<<<<<<<<<<<<<06',
      ],
    );
    const [, first] = rows;
    assert.ok(first);
    // Every character keeps its box; the row spans its pieces.
    assert.equal(first.chars.length, 37);
    assert.equal(Math.round(first.quad[1].x), 913);
    assert.deepEqual(
      first.chars.slice(-3).map((c) => Math.round(c.quad[0].x)),
      [853, 873, 893],
      'the upside-down fillers in reading order',
    );
    // Another band, or prose beside a row, is not joined.
    const apart = asMrzRows([
      placed('P<ITADUBOIS<<JOHN<<<<<<', { x: 67, y: 605, height: 26 }),
      placed('<<<<<<<<<<<', { x: 610, y: 640, height: 26 }),
      placed('Total 12 < 13', { x: 400, y: 605, height: 26 }),
    ]);
    assert.equal(apart.length, 3);
  });
});
