import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contentDisposition, outputName, safeBaseName } from '../../src/api/downloads.js';

/** Hostile client names and the base name each must become, exactly. */
const NAMES: readonly (readonly [string, string])[] = [
  ['..%2F..%2Fetc%2Fpasswd', 'passwd'],
  ['..\\..\\x', 'x'],
  ['%252e%252e%252fsecret.pdf', 'secret'],
  ['C:\\Users\\someone\\card.jpeg', 'card'],
  ['file\uff0fname.pdf', 'name'],
  ['a\r\nb".pdf', 'ab'],
  ['Set-Cookie\r\nx: y.png', 'Set-Cookiex_y'],
  ['report\u0000.pdf.exe', 'report.pdf'],
  ['it\'s "quoted"; x=1.png', 'it_s_quoted_x_1'],
  ['\u202egpj.exe', 'gpj'],
  ['...', 'document'],
  ['.', 'document'],
  ['%2e%2e%2f%2e%2e%2f', 'document'],
  ['', 'document'],
  ['.env', 'env'],
  ['a..b.pdf', 'a.b'],
  ['-rf .pdf', 'rf'],
  ['%zz%41.pdf', 'zzA'],
  ['my résumé (final).pdf', 'my_résumé_final'],
  ['आधार कार्ड.jpg', 'आधार_कार्ड'],
  ['%E0%A4%85.pdf', 'अ'],
  [`${'a'.repeat(300)}.png`, 'a'.repeat(100)],
];

describe('download names', () => {
  for (const [input, expected] of NAMES) {
    it(`derives ${JSON.stringify(expected)} from ${JSON.stringify(input.slice(0, 40))}`, () => {
      assert.equal(safeBaseName(input), expected);
    });
  }

  it('puts the extension of the output, never the client’s', () => {
    assert.equal(outputName('..%2F..%2Fetc%2Fpasswd', 'png', '_masked'), 'passwd_masked.png');
    assert.equal(outputName('invoice.exe', 'pdf', ''), 'invoice.pdf');
    assert.equal(outputName('photo.bmp', 'png', '_redacted'), 'photo_redacted.png');
  });

  it('writes a header with a safe ASCII name and the UTF-8 name encoded', () => {
    assert.equal(
      contentDisposition(outputName('आधार कार्ड.jpg', 'jpeg', '_masked')),
      'attachment; filename="_masked.jpg"; ' +
        "filename*=UTF-8''%E0%A4%86%E0%A4%A7%E0%A4%BE%E0%A4%B0_%E0%A4%95%E0%A4%BE%E0%A4%B0%E0%A5%8D%E0%A4%A1_masked.jpg",
    );
    // Even a name that did not come from outputName cannot break out of the quotes.
    assert.equal(
      contentDisposition('a"b\\c/d;e\r\n.pdf'),
      'attachment; filename="a_b_c_d_e_.pdf"; filename*=UTF-8\'\'a%22b%5Cc%2Fd%3Be%0D%0A.pdf',
    );
  });
});
