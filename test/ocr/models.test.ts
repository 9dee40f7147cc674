import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { asciiForm, defaultModelPaths, loadCharset } from '../../src/ocr/models.js';

describe('the recogniser charset', () => {
  it('reads full-width forms of ASCII as ASCII, and keeps every class in its place', async () => {
    const { dictionary } = defaultModelPaths();
    const entries = (await readFile(dictionary, 'utf8')).split(/\r?\n/).filter((e) => e !== '');
    const charset = await loadCharset(dictionary, undefined);
    // Blank first, the dictionary's entries in their order, a space last.
    assert.equal(charset.length, entries.length + 2);
    assert.equal(charset[0], '');
    assert.equal(charset.at(-1), ' ');
    for (const [wide, plain] of [
      ['（', '('],
      ['）', ')'],
      ['：', ':'],
      ['＋', '+'],
      ['－', '-'],
      ['Ｏ', 'O'],
      ['０', '0'],
    ]) {
      const index = entries.indexOf(wide as string);
      assert.ok(index >= 0, `the dictionary holds ${wide}`);
      assert.equal(charset[index + 1], plain);
    }
    assert.ok(!charset.includes('（') && !charset.includes('：'));
    // Letters of other scripts stay as they are.
    assert.equal(asciiForm('आ'), 'आ');
    assert.equal(asciiForm('中'), '中');
    assert.equal(asciiForm('A'), 'A');
  });
});
