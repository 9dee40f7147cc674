/**
 * The global finder on a page's lines: an OCR reading's MRZ zone that a misread broke (the
 * composite, the row's length) is still a zone to cover; a text layer's is held to every check.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findGlobalOnPage } from '../../src/detection/global-page.js';
import { GLOBAL_RULES } from '../../src/identifiers/catalogue.js';
import type { PageText } from '../../src/domain/text-layer.js';
import { line, page } from '../helpers/text-layer.js';

const ROW1 = 'P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<';
/** A valid second row: C01X0006H1D<<6408125F1710319<<<<<<<<<<<<<<<0. */
const ROW2 = 'C01X0006H1D<<6408125F1710319<<<<<<<<<<<<<<<0';

function zone(source: PageText['source'], row2: string) {
  const lines = [line(ROW1, { y: 10 }), line(row2, { y: 40 })];
  const found = findGlobalOnPage({ ...page(lines), source }, GLOBAL_RULES, { countries: [] });
  return {
    found: found.findings.filter((f) => f.type === 'PASSPORT_MRZ').map((f) => f.charQuads.length),
    rejected: found.rejected.filter((r) => r.type === 'PASSPORT_MRZ').map((r) => r.reason),
  };
}

describe('MRZ zones on an OCR reading', () => {
  it('covers a zone whose optional field or length OCR misread, when row two begins as one', () => {
    // A filler of the optional field read "4": the composite fails.
    const misread = `${ROW2.slice(0, 30)}4${ROW2.slice(31)}`;
    assert.deepEqual(zone('ocr', misread), { found: [88], rejected: [] });
    assert.deepEqual(zone('pdf', misread), { found: [], rejected: ['checksum'] });
    // Fillers lost from the row: forty characters.
    const short = `${ROW2.slice(0, 30)}${ROW2.slice(34)}`;
    assert.deepEqual(zone('ocr', short).found, [84]);
    // The document number's check digit wrong as well: no zone on any page.
    const broken = `${ROW2.slice(0, 9)}8${ROW2.slice(10, 30)}4${ROW2.slice(31)}`;
    assert.deepEqual(zone('ocr', broken), { found: [], rejected: ['checksum'] });
  });
});
