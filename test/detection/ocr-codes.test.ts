import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asMrzRows, capitalisedCodes } from '../../src/detection/ocr-codes.js';
import type { Quad, TextLine } from '../../src/ocr/types.js';

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
});
