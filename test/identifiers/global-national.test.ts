/**
 * The fourteen national global types (US, CA, BR, UK, EU, AU, ZA, IN) through the detector, one
 * rule at a time: valid values and near-misses in running text as people print them, and the
 * stand-ins from each type's reserved space. Expectations come from each type's published rule
 * and from the stdnum test vectors, never from our own validators.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { luhnChecksumValidate, verhoeffValidate } from 'stdnum/lib/cjs/util/checksum.js';
import { findGlobalInText } from '../../src/detection/text-finder.js';
import { AMERICAS } from '../../src/identifiers/americas.js';
import { ASIA_PACIFIC_AFRICA } from '../../src/identifiers/asia-pacific-africa.js';
import { EUROPE } from '../../src/identifiers/europe.js';
import type { Draw, GlobalRule } from '../../src/identifiers/global-rule.js';
import { INDIA_GLOBAL } from '../../src/identifiers/in/global-rules.js';

const RULES = [...AMERICAS, ...EUROPE, ...ASIA_PACIFIC_AFRICA, ...INDIA_GLOBAL];

function rule(type: string): GlobalRule {
  const found = RULES.find((r) => r.type === type);
  assert.ok(found, type);
  return found;
}

/** The values found in `text` by the one rule, as printed. */
function found(type: string, text: string): string[] {
  const { findings } = findGlobalInText(text, [rule(type)]);
  for (const f of findings) assert.equal(f.type, type);
  return findings.map((f) => text.slice(f.start, f.end));
}

/** The candidates the rule refused, as printed, with the reason. */
function refused(type: string, text: string): [string, string][] {
  const { rejected } = findGlobalInText(text, [rule(type)]);
  return rejected.map((r) => [text.slice(r.start, r.end), r.reason]);
}

/** Bytes from SHA-256(seed, counter): deterministic, and other for another seed. */
function seededDraw(seed: string): Draw {
  let counter = 0;
  return (count) => {
    const out = new Uint8Array(count);
    for (let i = 0; i < count; i += 32) {
      const block = createHash('sha256').update(`${seed}:${counter}`).digest();
      counter += 1;
      out.set(block.subarray(0, Math.min(32, count - i)), i);
    }
    return out;
  };
}

/** Σ digit × weight, as §8 and §10 state their checks (written out here, not our validators). */
function weighted(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) sum += Number(digits[i]) * (weights[i] ?? 0);
  return sum;
}

/** The printed shape: digits 9, capitals A, small letters a, separators as they are. */
const shape = (s: string) => s.replace(/[0-9]/g, '9').replace(/[A-Z]/g, 'A').replace(/[a-z]/g, 'a');

/**
 * For each raw value: the stand-in keeps its printed shape, is the same for the same draw and
 * another for another draw, and is refused by the rule (with `reason`) where it stands in the
 * text. Returns the stand-ins of the first seed, compacted, for the type's own checks.
 */
function checkPseudonyms(type: string, label: string, raws: string[], reason: string): string[] {
  const r = rule(type);
  return raws.map((raw) => {
    const first = r.pseudonym(raw, seededDraw('seed-1'));
    assert.equal(shape(first), shape(raw), `${type} ${raw} -> ${first}`);
    assert.equal(r.pseudonym(raw, seededDraw('seed-1')), first, `${type}: deterministic`);
    assert.notEqual(r.pseudonym(raw, seededDraw('seed-2')), first, `${type}: another draw`);
    const text = `${label} ${first}\n`;
    assert.deepEqual(found(type, text), [], `${type}: ${first} found`);
    assert.deepEqual(refused(type, text), [[first, reason]], `${type}: ${first}`);
    return r.compact(first);
  });
}

describe('US_SSN', () => {
  it('finds SSNs printed with hyphens, dots, spaces or bare, labelled or not', () => {
    const text =
      'Employee record\nSSN: 123-45-6789\nSpouse social security no. 078-05-1120 ' +
      '(the Woolworth card),\ndependant 123.45.6789 and 123 45 6789; on file as 123456789.';
    assert.deepEqual(found('US_SSN', text), [
      '123-45-6789',
      '078-05-1120',
      '123.45.6789',
      '123 45 6789',
      '123456789',
    ]);
  });

  it('refuses area 000, 666 and 9xx, group 00 and serial 0000 (§5)', () => {
    const text =
      'SSN 000-12-3456, SSN 666-12-3456, ITIN 912-70-1234,\nSSN 123-00-4567 and SSN 123-45-0000.';
    assert.deepEqual(refused('US_SSN', text), [
      ['000-12-3456', 'prefix'],
      ['666-12-3456', 'prefix'],
      ['912-70-1234', 'prefix'],
      ['123-00-4567', 'group'],
      ['123-45-0000', 'serial'],
    ]);
    assert.deepEqual(found('US_SSN', text), []);
  });

  it('takes no nine digits out of a longer run or a longer digit group', () => {
    const text = 'Order 1234567890, ref A123-45-6789, tel 555-123-45-6789, SSN 123-45-67890';
    assert.deepEqual(found('US_SSN', text), []);
    assert.deepEqual(refused('US_SSN', text), []);
  });

  it('stands in with area 000, never an SSN, ITIN or EIN (§5)', () => {
    const stand = checkPseudonyms(
      'US_SSN',
      'SSN',
      ['123-45-6789', '123 45 6789', '123456789'],
      'prefix',
    );
    for (const s of stand) assert.match(s, /^000[0-9]{6}$/);
  });
});

describe('US_ITIN', () => {
  it('finds ITINs in the IRS groups 50-65, 70-88, 90-92 and 94-99 (§6)', () => {
    const text =
      'ITIN: 912-70-1234\nITIN 900-50-1234 (group 50, which python-stdnum misses),\n' +
      'also 987 65 4321 and 999-99-1234.';
    assert.deepEqual(found('US_ITIN', text), [
      '912-70-1234',
      '900-50-1234',
      '987 65 4321',
      '999-99-1234',
    ]);
  });

  it('refuses the ATIN group 93, groups 66-69 and 89, and SSN-shaped numbers', () => {
    const text = 'ATIN 912-93-1234, 912-67-1234, 912-89-1234, 912-10-1234;\nSSN 812-70-1234';
    assert.deepEqual(refused('US_ITIN', text), [
      ['912-93-1234', 'group'],
      ['912-67-1234', 'group'],
      ['912-89-1234', 'group'],
      ['912-10-1234', 'group'],
    ]);
    assert.deepEqual(found('US_ITIN', text), []);
  });

  it('stands in with group 66-69 (§6)', () => {
    const stand = checkPseudonyms('US_ITIN', 'ITIN', ['912-70-1234', '900501234'], 'group');
    for (const s of stand) assert.match(s, /^9[0-9]{2}6[6-9][0-9]{4}$/);
  });
});

describe('US_EIN', () => {
  it('finds NN-NNNNNNN anywhere and nine bare digits after an EIN label', () => {
    const text =
      'Employer: Acme Corp., EIN 12-3456789\nPayer 98-7654321 (W-2 box b)\nEIN: 123456789\n' +
      'Invoice 123456789';
    assert.deepEqual(found('US_EIN', text), ['12-3456789', '98-7654321', '123456789']);
    assert.equal(
      text.indexOf('123456789'),
      findGlobalInText(text, [rule('US_EIN')]).findings[2]?.start,
    );
  });

  it('refuses the prefixes the IRS never assigned (§7)', () => {
    const text = 'EIN 07-1234567, 00-1234567, 49-1234567 and 97-1234567.';
    assert.deepEqual(refused('US_EIN', text), [
      ['07-1234567', 'prefix'],
      ['00-1234567', 'prefix'],
      ['49-1234567', 'prefix'],
      ['97-1234567', 'prefix'],
    ]);
  });

  it('takes no EIN out of a longer run', () => {
    assert.deepEqual(found('US_EIN', 'Part 12-34567890 and 112-3456789'), []);
  });

  it('stands in with prefix 07, 08 or 09 (§7)', () => {
    const stand = checkPseudonyms('US_EIN', 'EIN', ['12-3456789', '98-7654321'], 'prefix');
    for (const s of stand) assert.match(s, /^0[789][0-9]{7}$/);
  });
});

describe('US_ABA_ROUTING', () => {
  it('finds routing numbers with a Federal Reserve prefix and a valid 3-7-1 sum (§8)', () => {
    // Sums worked by hand with the §8 weights 3, 7, 1:
    // 011000015: 0 + 7 + 1 + 0 + 0 + 0 + 0 + 7 + 5 = 20; 026009593: 0 + 14 + 6 + 0 + 0 + 9 + 15 + 63 + 3 = 110.
    const text = 'Bank routing number: 011000015\nABA 0110-0001-5 (MICR ⑆026009593⑆)\naccount 1234';
    assert.deepEqual(found('US_ABA_ROUTING', text), ['011000015', '0110-0001-5', '026009593']);
  });

  it('refuses a wrong check digit and the unassigned prefixes, even with a valid sum (§8)', () => {
    const text = 'Routing 011000016; routing 501234566\nRTN 0110000150 (ten digits)';
    assert.deepEqual(refused('US_ABA_ROUTING', text), [
      ['011000016', 'checksum'],
      ['501234566', 'prefix'],
    ]);
  });

  it('stands in with an unassigned prefix and a valid check digit (§8)', () => {
    const stand = checkPseudonyms(
      'US_ABA_ROUTING',
      'Routing',
      ['011000015', '0260-0959-3'],
      'prefix',
    );
    for (const s of stand) {
      const prefix = Number(s.slice(0, 2));
      assert.ok(
        (prefix >= 13 && prefix <= 20) ||
          (prefix >= 33 && prefix <= 60) ||
          (prefix >= 73 && prefix <= 79) ||
          prefix >= 81,
        s,
      );
      assert.equal(weighted(s, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10, 0, s);
    }
  });
});

describe('CA_SIN', () => {
  it('finds Luhn-valid SINs with spaces, hyphens or bare', () => {
    const text = 'Social Insurance Number\n130 692 544\nNAS : 193-456-787, ou 130692544.';
    assert.deepEqual(found('CA_SIN', text), ['130 692 544', '193-456-787', '130692544']);
  });

  it('refuses a wrong Luhn digit and the first digits 0 and 8 (§11)', () => {
    const text = 'SIN 130 692 545\nSIN 046 454 286 (the documentation SIN), SIN 812-345-674';
    assert.deepEqual(refused('CA_SIN', text), [
      ['130 692 545', 'checksum'],
      ['046 454 286', 'prefix'],
      ['812-345-674', 'prefix'],
    ]);
  });

  it('stands in with first digit 0 and a valid Luhn digit, like 012 345 674 (§11)', () => {
    const stand = checkPseudonyms('CA_SIN', 'SIN', ['130 692 544', '193-456-787'], 'prefix');
    for (const s of stand) {
      assert.match(s, /^0/);
      assert.ok(luhnChecksumValidate(s), s);
    }
    // The worked stand-in of §11 is refused for the same reason.
    assert.deepEqual(refused('CA_SIN', 'SIN 012 345 674'), [['012 345 674', 'prefix']]);
  });
});

describe('BR_CPF', () => {
  it('finds CPFs printed NNN.NNN.NNN-DD or bare (§14: 123456789 -> 09)', () => {
    const text = 'Nome: Maria Silva\nCPF: 123.456.789-09\nCPF 12345678909 (sem pontos)';
    assert.deepEqual(found('BR_CPF', text), ['123.456.789-09', '12345678909']);
  });

  it('refuses a wrong check digit, repeated digits and a wrong length', () => {
    const text = 'CPF 123.456.789-08, CPF 111.111.111-11, CPF 000.000.000-00\nCPF 123.456.789-0';
    assert.deepEqual(refused('BR_CPF', text), [
      ['123.456.789-08', 'checksum'],
      ['111.111.111-11', 'repeated'],
      ['000.000.000-00', 'repeated'],
    ]);
    assert.deepEqual(found('BR_CPF', text), []);
  });

  it('stands in with a wrong second check digit (§14)', () => {
    checkPseudonyms('BR_CPF', 'CPF', ['123.456.789-09', '12345678909'], 'checksum');
  });
});

describe('UK_NINO', () => {
  it('finds NINOs with or without spaces and suffix, in either case', () => {
    const text =
      'National Insurance number: AB 12 34 56 C\nNINO JG103759A; ni number ab123456c\n' +
      'NI No. AB 12 34 56 and so on';
    assert.deepEqual(found('UK_NINO', text), [
      'AB 12 34 56 C',
      'JG103759A',
      'ab123456c',
      'AB 12 34 56',
    ]);
  });

  it('covers a letter set apart after the digits as the suffix printed, even outside A-D', () => {
    const text = 'NINO AB 12 34 56 H on file; NI number JG-10-37-59-Z. AB 12 34 56 Has no suffix.';
    assert.deepEqual(found('UK_NINO', text), ['AB 12 34 56 H', 'JG-10-37-59-Z', 'AB 12 34 56']);
  });

  it("refuses HMRC's unused prefix letters and pairs (§9)", () => {
    const text =
      'NINO QQ 12 34 56 A, NINO GB 12 34 56 A, NINO AO 12 34 56 B,\nNINO DA 12 34 56 C, NINO NC123456D';
    assert.deepEqual(refused('UK_NINO', text), [
      ['QQ 12 34 56 A', 'prefix'],
      ['GB 12 34 56 A', 'prefix'],
      ['AO 12 34 56 B', 'prefix'],
      ['DA 12 34 56 C', 'prefix'],
      ['NC123456D', 'prefix'],
    ]);
  });

  it('finds no NINO in a longer run, with another suffix or in words and a phone number', () => {
    const text =
      'AB123456E, XAB123456C, AB1234567C\nCall me at 12 34 56 or on 123456.\n' +
      'Request ee870111-d83b-4f5c-9a2e-1b7c9d0e4f21, EE870111-D83B-4F5C-9A2E-1B7C9D0E4F21, ab123456';
    assert.deepEqual(found('UK_NINO', text), []);
  });

  it('stands in with prefix QQ and the original suffix (§9)', () => {
    const stand = checkPseudonyms(
      'UK_NINO',
      'NINO',
      ['AB 12 34 56 C', 'jg103759a', 'AB 12 34 56', 'AB 12 34 56 H'],
      'prefix',
    );
    assert.match(stand[0] ?? '', /^QQ[0-9]{6}C$/);
    assert.match(stand[1] ?? '', /^QQ[0-9]{6}A$/);
    assert.match(stand[2] ?? '', /^QQ[0-9]{6}$/);
    assert.match(stand[3] ?? '', /^QQ[0-9]{6}H$/);
  });
});

describe('UK_NHS', () => {
  it("finds NHS numbers with a valid modulus-11 digit (§10: Wikipedia's 943 476 5919)", () => {
    const text = 'NHS No: 943 476 5919\nPatient NHS number 943-476-5919, or 9434765919.';
    assert.deepEqual(found('UK_NHS', text), ['943 476 5919', '943-476-5919', '9434765919']);
  });

  it('refuses a wrong check digit and the 999 test range (§10)', () => {
    const text = 'NHS 943 476 5918\nNHS 999 000 0018 and 999 000 0026 (test numbers)';
    assert.deepEqual(refused('UK_NHS', text), [
      ['943 476 5918', 'checksum'],
      ['999 000 0018', 'reserved'],
      ['999 000 0026', 'reserved'],
    ]);
  });

  it('stands in from the 999 range with a valid check digit, which passes mod-11 (§10)', () => {
    // §10: these pass every NHS validator; our detector leaves the test range alone instead.
    const stand = checkPseudonyms('UK_NHS', 'NHS', ['943 476 5919', '9434765919'], 'reserved');
    for (const s of stand) {
      assert.match(s, /^999[0-9]{7}$/);
      assert.equal(weighted(s, [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]) % 11, 0, s);
    }
  });
});

describe('AU_TFN', () => {
  it("finds TFNs with a valid weighted sum (§12: the ATO's 123 456 782)", () => {
    const text = 'Tax file number: 123 456 782\nTFN 123-456-782 or 123456782';
    assert.deepEqual(found('AU_TFN', text), ['123 456 782', '123-456-782', '123456782']);
  });

  it('refuses a wrong check digit, and reads eight digits only after a TFN label', () => {
    const text = 'TFN 123 456 781\nTFN: 123 456 78\nInvoice 12345678';
    assert.deepEqual(refused('AU_TFN', text), [
      ['123 456 781', 'checksum'],
      ['123 456 78', 'checksum'],
    ]);
  });

  it('stands in with a failing weighted sum (§12)', () => {
    checkPseudonyms('AU_TFN', 'TFN', ['123 456 782', '123456782'], 'checksum');
  });
});

describe('AU_ABN', () => {
  it("finds ABNs with a valid mod-89 sum (§13: the ABR's 51 824 753 556)", () => {
    const text = 'Acme Pty Ltd\nABN 51 824 753 556\nAustralian Business Number: 51824753556';
    assert.deepEqual(found('AU_ABN', text), ['51 824 753 556', '51824753556']);
  });

  it('refuses a wrong check digit and check pairs 00-10 that pass by aliasing (§13)', () => {
    const text = 'ABN 51 824 753 557\nABN 00 111 111 111\nABN 51 824 753 55';
    assert.deepEqual(refused('AU_ABN', text), [
      ['51 824 753 557', 'checksum'],
      ['00 111 111 111', 'prefix'],
    ]);
  });

  it('stands in with check digits 11-99 and a failing sum (§13)', () => {
    const stand = checkPseudonyms('AU_ABN', 'ABN', ['51 824 753 556', '51824753556'], 'checksum');
    for (const s of stand) assert.ok(Number(s.slice(0, 2)) >= 11, s);
  });
});

describe('ZA_ID', () => {
  // Luhn digits from stdnum's own luhn (not our validator); 7503305044089 is python-stdnum's.
  it('finds identity numbers with a real date, citizenship 0-2 and a Luhn digit (§15)', () => {
    const text =
      'RSA ID No: 7503305044089\nIdentity number 800101 5009 08 7\n' +
      'Refugee ID 8001015009285; born 29 Feb 2000: 0002291234181';
    assert.deepEqual(found('ZA_ID', text), [
      '7503305044089',
      '800101 5009 08 7',
      '8001015009285',
      '0002291234181',
    ]);
  });

  it('refuses a wrong check digit, an unreal date and citizenship 3-9 (§15)', () => {
    const text =
      'ID 7503305044088\nID 0102291234189 (29 Feb 2001)\nID 800101 5009 9 8 8 (the §15 stand-in)';
    assert.deepEqual(refused('ZA_ID', text), [
      ['7503305044088', 'checksum'],
      ['0102291234189', 'date'],
      ['800101 5009 9 8 8', 'citizenship'],
    ]);
  });

  it('stands in with citizenship 3-9, race digit 8 and a valid Luhn digit (§15)', () => {
    const stand = checkPseudonyms(
      'ZA_ID',
      'ID number',
      ['7503305044089', '800101 5009 08 7'],
      'citizenship',
    );
    for (const s of stand) {
      assert.match(s, /^[0-9]{10}[3-9]8[0-9]$/);
      assert.ok(luhnChecksumValidate(s), s);
    }
  });
});

describe('IN_AADHAAR', () => {
  it('finds Verhoeff-valid Aadhaar numbers as printed (IN.1)', () => {
    const text =
      'Aadhaar No.: 2341 2341 2346\nआधार 4918 7362 5102, UID 7234-5098-7614\nold form 876543210988';
    assert.deepEqual(found('IN_AADHAAR', text), [
      '2341 2341 2346',
      '4918 7362 5102',
      '7234-5098-7614',
      '876543210988',
    ]);
  });

  it('refuses a wrong check digit, a transposition, first digit 0/1 and a palindrome (IN.1)', () => {
    const text =
      'Aadhaar 4918 7362 5108, Aadhaar 4918 7362 5120\nAadhaar 1234 5678 9010, 0123 4567 8906\n' +
      'Aadhaar 2000 0990 0002';
    assert.deepEqual(refused('IN_AADHAAR', text), [
      ['4918 7362 5108', 'checksum'],
      ['4918 7362 5120', 'checksum'],
      ['1234 5678 9010', 'prefix'],
      ['0123 4567 8906', 'prefix'],
      ['2000 0990 0002', 'palindrome'],
    ]);
  });

  it('reads no twelve digits out of a VID, a masked number or eleven digits', () => {
    const text = 'VID 9134 5678 9012 3450\nXXXX XXXX 5102\n4918 7362 510';
    assert.deepEqual(found('IN_AADHAAR', text), []);
    assert.deepEqual(refused('IN_AADHAAR', text), []);
  });

  it('stands in with first digit 0 or 1 and a valid Verhoeff digit (§16)', () => {
    const stand = checkPseudonyms(
      'IN_AADHAAR',
      'Aadhaar',
      ['2341 2341 2346', '7234-5098-7614', '876543210988'],
      'prefix',
    );
    for (const s of stand) {
      assert.match(s, /^[01]/);
      assert.ok(verhoeffValidate(s), s);
    }
  });
});

describe('IN_PAN', () => {
  it('finds PANs with a holder code, K at lower confidence (IN.3)', () => {
    const text =
      'PAN: ACUPA7085R\nPermanent Account Number AAPPV8261K, firm AAKFD7113K\nABCKE1234F';
    assert.deepEqual(found('IN_PAN', text), [
      'ACUPA7085R',
      'AAPPV8261K',
      'AAKFD7113K',
      'ABCKE1234F',
    ]);
    const { findings } = findGlobalInText(text, [rule('IN_PAN')]);
    assert.ok((findings[3]?.confidence ?? 1) < (findings[2]?.confidence ?? 0));
  });

  it('refuses other holder codes and serial 0000; reads none in a GSTIN or a wrong shape', () => {
    const text =
      'PAN ABCXE1234F, PAN ABCEE1234F, PAN ABCPE0000F\nGSTIN 27AAPFU0939F1ZV, ABCPE12345, ABCP1234F';
    assert.deepEqual(refused('IN_PAN', text), [
      ['ABCXE1234F', 'holder'],
      ['ABCEE1234F', 'holder'],
      ['ABCPE0000F', 'serial'],
    ]);
    assert.deepEqual(found('IN_PAN', text), []);
  });

  it('stands in with serial 0000 and the holder code kept (§16)', () => {
    const stand = checkPseudonyms('IN_PAN', 'PAN', ['ACUPA7085R', 'AAKFD7113K'], 'serial');
    assert.match(stand[0] ?? '', /^[A-Z]{3}P[A-Z]0000[A-Z]$/);
    assert.match(stand[1] ?? '', /^[A-Z]{3}F[A-Z]0000[A-Z]$/);
  });
});

describe('EU_VAT', () => {
  // Valid and invalid vectors from the stdnum test suites (koblas/stdnum-js *.spec.ts).
  it('finds VAT numbers of every member state as printed, with their prefix (§17)', () => {
    const valid = [
      'ATU13585627', 'AT U13585627', 'BE 0417497106', 'BE 0417.497.106', 'BG 175 074 752',
      'CY-10259033P', 'CZ 25123891', 'DE136695976', 'DE 136 695 976', 'DK 13585628',
      'EE 100 931 558', 'EL 094259216', 'ES B-58378431', 'ES X-5253868-R', 'ES54362315K',
      'FI 20774740', 'FR 40 303 265 045', 'HR 33392005961', 'HU-12892312', 'IE 6433435F',
      'IE 6433435OA', 'IE 8D79739I', 'IT 00743110157', 'LT 100001919017', 'LT119511515',
      'LU 150 274 42', 'LV 4000 3521 600', 'MT 1167-9112', 'NL004495445B01',
      'NL 0044.95.445.B01', 'PL 8567346215', 'PT 501 964 843', 'RO 18547290',
      'SE 123456789701', 'SI 5022 3054', 'SK 202 274 96 19', 'XI 980 7806 84',
    ]; // prettier-ignore
    const text = `Supplier VAT numbers:\n${valid.join(',\n')}.\nUSt-IdNr.: DE136695976`;
    assert.deepEqual(found('EU_VAT', text), [...valid, 'DE136695976']);
  });

  it('refuses wrong check digits and lengths; Greece is EL, not GR', () => {
    const text =
      'VAT DE136695978, TVA FR 84 323 140 391, IVA IT 00743110158, BTW NL123456789B90,\n' +
      'CY-10259033Z, SE 123456789101, LT 1000019190 and GR094259216, DE 12345678.';
    assert.deepEqual(refused('EU_VAT', text), [
      ['DE136695978', 'checksum'],
      ['FR 84 323 140 391', 'checksum'],
      ['IT 00743110158', 'checksum'],
      ['NL123456789B90', 'checksum'],
      ['CY-10259033Z', 'checksum'],
      ['SE 123456789101', 'checksum'],
      ['LT 1000019190', 'length'],
    ]);
    assert.deepEqual(found('EU_VAT', text), []);
  });

  it('stands in with the prefix, letters and layout kept and a failing check (§17)', () => {
    const raws = [
      'DE136695976', 'ATU13585627', 'FR 40 303 265 045', 'NL 0044.95.445.B01', 'ES B-58378431',
      'IE 6433435OA', 'BE 0417.497.106', 'SE 123456789701', 'EL 094259216', 'PL 8567346215',
    ]; // prettier-ignore
    const stand = checkPseudonyms('EU_VAT', 'VAT', raws, 'checksum');
    assert.match(stand[1] ?? '', /^ATU[0-9]{8}$/);
    assert.match(stand[3] ?? '', /^NL[0-9]{9}B[0-9]{2}$/);
    assert.match(stand[4] ?? '', /^ESB[0-9]{8}$/);
    // A Northern Irish government department has no check digit: GD500-999 is never issued.
    const [department] = checkPseudonyms('EU_VAT', 'VAT', ['XI GD123'], 'format');
    assert.match(department ?? '', /^XIGD[5-9][0-9]{2}$/);
  });
});

describe('the national rules', () => {
  it('use linear global patterns: a long run of digits and separators is read at once', () => {
    const long = `${'1 2-'.repeat(20000)}X`;
    for (const r of RULES) {
      const started = performance.now();
      findGlobalInText(long, [r]);
      assert.ok(performance.now() - started < 1000, r.type);
      assert.ok(r.pattern?.global, r.type);
    }
  });

  it('never write a value into a rule name', () => {
    const r = rule('US_SSN');
    const v = r.validate('123450000');
    assert.equal(v.valid, false);
    assert.ok(!v.rule.includes('123450000'));
  });
});
