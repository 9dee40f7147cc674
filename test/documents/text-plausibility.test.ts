/**
 * Which text-layer lines decode to something no page prints (and so send their page to OCR),
 * and which ordinary lines, odd as they look, are trusted as they are.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { implausibleLine } from '../../src/documents/text-plausibility.js';
import { line } from '../helpers/text-layer.js';

const privateUse = (text: string) =>
  Array.from(text, (c) => (c === ' ' ? c : String.fromCodePoint(0xe000 + c.charCodeAt(0)))).join(
    '',
  );

describe('Text-layer plausibility', () => {
  it('distrusts glyphs mapped to the private-use area, U+FFFD or control codes', () => {
    assert.equal(implausibleLine(line(privateUse('Ravi Kumar Verma'))), true);
    assert.equal(implausibleLine(line('\uFFFD\uFFFD\uFFFD\uFFFD \uFFFD\uFFFD')), true);
    assert.equal(implausibleLine(line('\u0001\u0002\u0003 \u0004\u0005')), true);
    // A name whose surname alone is unmapped: 5 of 15 letters, a third of the line.
    assert.equal(implausibleLine(line(`Ravi Kumar ${privateUse('Verma')}`)), true);
  });

  it('distrusts a few stray letters among spaces', () => {
    assert.equal(implausibleLine(line('   Q K          ')), true);
    assert.equal(implausibleLine(line('  A  B  X  R ')), true);
  });

  it('trusts what ordinary documents print', () => {
    for (const text of [
      'Ravi Kumar Verma',
      '2345 6789 0124',
      // A bullet from a symbol font (one private-use glyph) before a sentence.
      `${String.fromCodePoint(0xf0b7)} Your Aadhaar is your identity`,
      // A letter-spaced heading, a form field waiting for its value, a lone initial.
      'I N V O I C E',
      'Name:                    ',
      'A',
      '      ',
      'आधार - आम आदमी का अधिकार',
      'Ω ≈ 3.14 µm ± 0.2',
    ]) {
      assert.equal(implausibleLine(line(text)), false, text);
    }
  });
});
