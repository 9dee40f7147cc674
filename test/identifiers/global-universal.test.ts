/**
 * The eleven universal rules through the detector (findGlobalInText) on running text: valid
 * vectors of each type's published rule and its published specimens, near-misses
 * with the reason they are refused, and each type's pseudonym (same printed shape, fixed by the
 * draw, never taken again as a valid value).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { findGlobalInText } from '../../src/detection/text-finder.js';
import type { Draw, GlobalRule } from '../../src/identifiers/global-rule.js';
import type { FindHints } from '../../src/identifiers/rule.js';
import { UNIVERSAL } from '../../src/identifiers/universal.js';
import { luhnRemainder } from '../../src/identifiers/universal/payment-card.js';

function rule(type: string): GlobalRule {
  const found = UNIVERSAL.find((r) => r.type === type);
  if (!found) throw new Error(`no rule ${type}`);
  return found;
}

/** What the detector makes of `text` with one rule: found values and refused ones, as printed. */
function detect(type: string, text: string, hints?: FindHints) {
  const result = findGlobalInText(text, [rule(type)], hints);
  return {
    found: result.findings.map((f) => text.slice(f.start, f.end)),
    rejected: result.rejected.map((r) => [text.slice(r.start, r.end), r.reason]),
  };
}

/** A fixed Draw: SHA-256 of the seed and a counter, as many bytes as asked for. */
function fixedDraw(seed: string): Draw {
  let counter = 0;
  let pool = Buffer.alloc(0);
  return (count) => {
    while (pool.length < count) {
      pool = Buffer.concat([pool, createHash('sha256').update(`${seed}:${counter++}`).digest()]);
    }
    const out = new Uint8Array(pool.subarray(0, count));
    pool = pool.subarray(count);
    return out;
  };
}

/** Digits as 9, capitals as A, small letters as a: the printed shape. */
const shape = (s: string) => s.replace(/[0-9]/g, '9').replace(/[A-Z]/g, 'A').replace(/[a-z]/g, 'a');

/**
 * The stand-in of `raw` for two draws: deterministic for one, different for the other; `check`
 * sees the first.
 */
function standIns(type: string, raw: string): [string, string] {
  const r = rule(type);
  const first = r.pseudonym(raw, fixedDraw('one'));
  assert.equal(r.pseudonym(raw, fixedDraw('one')), first, 'deterministic for one draw');
  const second = r.pseudonym(raw, fixedDraw('two'));
  assert.notEqual(second, first, 'another draw, another stand-in');
  assert.notEqual(first, raw);
  return [first, second];
}

describe('UNIVERSAL', () => {
  it('keeps the declarations, in order, with SWIFT_BIC and DATE_OF_BIRTH off by default', () => {
    assert.deepEqual(
      UNIVERSAL.map((r) => r.type),
      [
        'PASSPORT_MRZ',
        'PAYMENT_CARD',
        'IBAN',
        'EMAIL',
        'PHONE',
        'IP_ADDRESS',
        'MAC_ADDRESS',
        'CRYPTO_BTC',
        'CRYPTO_ETH',
        'SWIFT_BIC',
        'DATE_OF_BIRTH',
      ],
    );
    for (const r of UNIVERSAL) {
      assert.equal(r.country, 'ANY');
      assert.deepEqual(r.countries, []);
      assert.equal(r.enabledByDefault, !['SWIFT_BIC', 'DATE_OF_BIRTH'].includes(r.type), r.type);
      assert.ok((r.pattern?.global ?? false) !== (r.find !== undefined), `${r.type}: one of two`);
    }
    assert.equal(rule('DATE_OF_BIRTH').needsLabel, true);
  });

  it('never puts a value into a rule name or a reason', () => {
    const values: [string, string][] = [
      ['PAYMENT_CARD', '4111111111111112'],
      ['IBAN', 'GB83WEST12345698765432'],
      ['EMAIL', 'jane.doe@example.com'],
      ['CRYPTO_ETH', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'],
      ['DATE_OF_BIRTH', '31/02/1985'],
    ];
    for (const [type, value] of values) {
      const v = rule(type).validate(value);
      const words = JSON.stringify(v);
      assert.ok(!words.includes(value) && !words.includes(value.slice(0, 8)), type);
    }
  });
});

describe('PASSPORT_MRZ', () => {
  // cheminfo/mrz's specimens (the type's published rule): German TD3, Swiss TD1.
  const TD3_DE =
    'P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<\nC01X0006H1D<<6408125F1710319<<<<<<<<<<<<<<<0';
  const TD1_CH =
    'IDCHEA1234567<6<<<<<<<<<<<<<<<\n7510256M2009018CHE<<<<<<<<<<<8\nSMITH<<JOHN<ALBERT<<<<<<<<<<<<';
  const TD1_NO_SURNAME =
    'I<CHED231458907ABC<<<<<<<<<<<<\r\n7408122F1204159CHE<<<<<<<<<<<1\r\n<<ANNA<MARIA<<<<<<<<<<<<<<<<<<';
  // ICAO's Utopia specimens: every check digit holds, the state is the reserved UTO.
  const TD3_ICAO =
    'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C<3UTO6908061F9406236ZE184226B<<<<<14';
  const TD2_UTO = 'I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<\nD231458907UTO7408122F1204159<<<<<<<6';
  const TD1_UTO_LONG_NUMBER =
    'I<UTOD23145890<1240<XYZ<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<8\nERIKSSON<<ANNA<MARIA<<<<<<<<<<';

  it('finds TD3 and TD1 zones across their line breaks, as the whole zone', () => {
    const text = `Passport page scan:\n${TD3_DE}\nend.\nID card back:\n${TD1_CH}\n\n${TD1_NO_SURNAME}\n`;
    assert.deepEqual(detect('PASSPORT_MRZ', text), {
      found: [TD3_DE, TD1_CH, TD1_NO_SURNAME],
      rejected: [],
    });
    assert.equal(
      rule('PASSPORT_MRZ').compact(TD3_DE),
      TD3_DE.replace('\n', ''),
      'compact removes the break',
    );
  });

  it('checks every field and the composite; refuses Utopia as reserved', () => {
    const composite = TD3_DE.slice(0, -1) + '1';
    const birthCheck = TD1_CH.replace('7510256M', '7510257M');
    const text = [composite, birthCheck, TD3_ICAO, TD2_UTO, TD1_UTO_LONG_NUMBER].join('\n\n');
    assert.deepEqual(detect('PASSPORT_MRZ', text), {
      found: [],
      rejected: [
        [composite, 'checksum'],
        [birthCheck, 'checksum'],
        [TD3_ICAO, 'reserved'],
        [TD2_UTO, 'reserved'],
        [TD1_UTO_LONG_NUMBER, 'reserved'],
      ],
    });
  });

  it('takes no zone with a short line or glued to more MRZ characters', () => {
    const short = TD3_DE.slice(0, -1);
    const glued = TD3_DE + '<';
    // Rows of about the right length are a candidate (a zone with a misread row), and no row
    // of these checks on its own.
    assert.deepEqual(detect('PASSPORT_MRZ', `${short}\n\n${glued}`), {
      found: [],
      rejected: [
        [short, 'checksum'],
        [glued, 'checksum'],
      ],
    });
  });

  it('finds a zone with a misread row when another row checks on its own', () => {
    // TD3: the first row lost a character; the second holds every check digit.
    const [l1 = '', l2 = ''] = TD3_DE.split('\n');
    const misread = `${l1.slice(0, 10)}${l1.slice(11)}\n${l2}`;
    assert.deepEqual(detect('PASSPORT_MRZ', misread).found, [misread]);
    // Its composite changed as well: nothing checks, nothing found.
    const broken = `${l1.slice(0, 10)}${l1.slice(11)}\n${l2.slice(0, -1)}${(Number(l2.at(-1)) + 1) % 10}`;
    assert.deepEqual(detect('PASSPORT_MRZ', broken).found, []);
    // TD1: the first row misread, the second's dates check once O is put back as 0.
    const [a = '', b = '', c = ''] = TD1_CH.split('\n');
    const td1 = `${a.slice(0, 7)}${a.slice(8)}\n${b.replace('7510', '751O')}\n${c}`;
    assert.deepEqual(detect('PASSPORT_MRZ', td1).found, [td1]);
  });

  it('puts back a filler OCR lost from a run and checks the zone whole', () => {
    const [a = '', b = '', c = ''] = TD1_CH.split('\n');
    const lost = `${a}\n${b.replace('<<<<', '<<<')}\n${c.replace('<<<<', '<<<<<')}`;
    const result = findGlobalInText(lost, [rule('PASSPORT_MRZ')]);
    assert.equal(result.findings.length, 1);
    assert.doesNotMatch(result.findings[0]?.rule ?? '', /one row/);
  });

  it('stands in with a Utopia zone of the same layout that parsers still read', () => {
    for (const raw of [TD3_DE, TD1_CH, TD1_UTO_LONG_NUMBER.replace(/UTO/g, 'CHE')]) {
      const [first] = standIns('PASSPORT_MRZ', raw);
      const lines = (s: string) => s.split('\n').map((l) => l.length);
      assert.deepEqual(lines(first), lines(raw));
      if (!raw.includes('D<<')) {
        // Fillers stay where they were (the German state D<< becomes UTO).
        assert.equal(first.replace(/[^<\n]/g, 'x'), raw.replace(/[^<\n]/g, 'x'));
      }
      assert.deepEqual(detect('PASSPORT_MRZ', first), {
        found: [],
        rejected: [[first, 'reserved']],
      });
    }
  });
});

describe('PAYMENT_CARD', () => {
  it('finds cards of several brands in their groupings', () => {
    const text =
      'Visa 4111 1111 1111 1111, MC 5555-5555-5555-4444; Amex 3782 822463 10005.\n' +
      'Card no.: 4242424242424242 (exp 12/29)';
    assert.deepEqual(detect('PAYMENT_CARD', text).found, [
      '4111 1111 1111 1111',
      '5555-5555-5555-4444',
      '3782 822463 10005',
      '4242424242424242',
    ]);
  });

  it('refuses a wrong check digit, a prefix no brand has and a length the brand lacks', () => {
    const text =
      'a 4111 1111 1111 1112, b 7234 5678 9012 3452, c 4111 1111 1111 11, d 1234 5678 9012 3452.';
    assert.deepEqual(detect('PAYMENT_CARD', text), {
      found: [],
      rejected: [
        ['4111 1111 1111 1112', 'checksum'],
        ['7234 5678 9012 3452', 'prefix'],
        ['4111 1111 1111 11', 'length'],
        ['1234 5678 9012 3452', 'length'],
      ],
    });
  });

  it('finds UATP cards: 15 digits beginning with 1, Luhn', () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const body = `1${String((seed * 7_919_133_733) % 10_000_000_000_000).padStart(13, '0')}`;
      const valid = `${body}${(10 - luhnRemainder(`${body}0`)) % 10}`;
      const wrong = `${body}${(Number(valid.at(-1)) + 1) % 10}`;
      const grouped = `${valid.slice(0, 4)} ${valid.slice(4, 9)} ${valid.slice(9)}`;
      assert.deepEqual(detect('PAYMENT_CARD', `UATP ${valid}, air ${grouped}`).found, [
        valid,
        grouped,
      ]);
      assert.deepEqual(detect('PAYMENT_CARD', `x ${wrong}`).rejected, [[wrong, 'checksum']]);
    }
  });

  it('finds each of two numbers written one after the other with one space between', () => {
    const text =
      'cards 4012888888881881 5555555555554444, then 4111 1111 1111 1111 378282246310005 and ' +
      '371449635398431-6011111111111117.';
    assert.deepEqual(detect('PAYMENT_CARD', text).found, [
      '4012888888881881',
      '5555555555554444',
      '4111 1111 1111 1111',
      '378282246310005',
      '371449635398431',
      '6011111111111117',
    ]);
    // Groups stay one run: no card is cut out of five groups of four.
    assert.deepEqual(detect('PAYMENT_CARD', 'x 4111 1111 1111 1111 2222 y').found, []);
  });

  it('takes no digits out of a longer run', () => {
    // The whole run is the candidate (and fails); no valid card is cut out of it.
    const text = 'ref 94111111111111111 and 4111 1111 1111 1111 2222 and x4111111111111111';
    assert.deepEqual(detect('PAYMENT_CARD', text), {
      found: [],
      rejected: [['94111111111111111', 'prefix']],
    });
  });

  it('stands in with the same brand and grouping, Luhn-invalid', () => {
    for (const raw of ['4111 1111 1111 1111', '3782-822463-10005', '5555555555554444']) {
      const [first] = standIns('PAYMENT_CARD', raw);
      assert.equal(shape(first), shape(raw));
      assert.equal(first[0], raw[0], 'brand prefix kept');
      assert.deepEqual(detect('PAYMENT_CARD', first), {
        found: [],
        rejected: [[first, 'checksum']],
      });
    }
  });
});

describe('IBAN', () => {
  it('finds IBANs in paper and electronic form, cut at the country length', () => {
    const text =
      'Pay to GB82 WEST 1234 5698 7654 32 (GBP).\nIBAN: DE89 3704 0044 0532 0130 00\n' +
      'BE68 5390 0754 7034 EUR NL91ABNA0417164300';
    assert.deepEqual(detect('IBAN', text), {
      found: [
        'GB82 WEST 1234 5698 7654 32',
        'DE89 3704 0044 0532 0130 00',
        'BE68 5390 0754 7034',
        'NL91ABNA0417164300',
      ],
      rejected: [],
    });
  });

  it('refuses wrong check digits, a short BBAN and an unknown country', () => {
    const text =
      'a GB83 WEST 1234 5698 7654 32, b GB00 WEST 1234 5698 7654 32, c GB82 WEST 1234 5698 7654 3,' +
      ' d XX82 WEST 1234 5698 7654 32';
    assert.deepEqual(detect('IBAN', text).rejected, [
      ['GB83 WEST 1234 5698 7654 32', 'checksum'],
      ['GB00 WEST 1234 5698 7654 32', 'checksum'],
      ['GB82 WEST 1234 5698 7654 3', 'length'],
      ['XX82 WEST 1234 5698 7654 32', 'country'],
    ]);
  });

  it('stands in with check digits 00, the country and BBAN classes kept', () => {
    for (const raw of ['GB82 WEST 1234 5698 7654 32', 'NL91ABNA0417164300']) {
      const [first] = standIns('IBAN', raw);
      assert.equal(shape(first), shape(raw));
      assert.equal(first.slice(0, 4), `${raw.slice(0, 2)}00`);
      assert.deepEqual(detect('IBAN', first), { found: [], rejected: [[first, 'checksum']] });
      assert.deepEqual(detect('PAYMENT_CARD', first).found, [], 'no card inside it either');
    }
  });
});

describe('EMAIL', () => {
  it('finds addresses and refuses the reserved and malformed ones', () => {
    const text =
      'Write to jane.doe@mailbox.co.uk or R.Patel+news@Post.Example-Mail.DE;\n' +
      'not to test@example.com, ops@host.invalid, x@mail.c0m, pay@okaxis.';
    assert.deepEqual(detect('EMAIL', text), {
      found: ['jane.doe@mailbox.co.uk', 'R.Patel+news@Post.Example-Mail.DE'],
      rejected: [
        ['test@example.com', 'reserved'],
        ['ops@host.invalid', 'reserved'],
        ['x@mail.c0m', 'top_level_label'],
      ],
    });
  });

  it('stands in at an RFC 2606 domain with the local part in its shape', () => {
    const raw = 'R.Patel+news77@Post.Example-Mail.DE';
    const [first] = standIns('EMAIL', raw);
    assert.match(first, /^[A-Z]\.[A-Z][a-z]{4}\+[a-z]{4}[0-9]{2}@example\.(?:com|net|org)$/);
    assert.deepEqual(detect('EMAIL', first), { found: [], rejected: [[first, 'reserved']] });
  });
});

describe('PHONE', () => {
  it('without a hint finds international numbers only', () => {
    const text =
      'Call +91 98765 43210 or +1 415 867 5309, office +33 1 42 68 53 00;\nlocal 020 3123 4567.';
    assert.deepEqual(detect('PHONE', text), {
      found: ['+91 98765 43210', '+1 415 867 5309', '+33 1 42 68 53 00'],
      rejected: [],
    });
  });

  it('with a country hint finds national numbers of that country', () => {
    const text = 'Mobile 07911 123456, office (020) 3123 4567; US (415) 867-5309.';
    assert.deepEqual(detect('PHONE', text, { countries: ['GB'] }).found, [
      '07911 123456',
      '(020) 3123 4567',
    ]);
    assert.deepEqual(detect('PHONE', text, { countries: ['US'] }).found, ['(415) 867-5309']);
  });

  it('refuses the fiction ranges as reserved and takes no invalid number', () => {
    const text = 'Tel +44 20 7946 0123, +1 212 555 0142, 020 7946 0999, and +44 20 7946 012.';
    assert.deepEqual(detect('PHONE', text, { countries: ['GB'] }), {
      found: [],
      rejected: [
        ['+44 20 7946 0123', 'reserved'],
        ['+1 212 555 0142', 'reserved'],
        ['020 7946 0999', 'reserved'],
      ],
    });
  });

  it('stands in from the fiction range of the same region, in the same layout', () => {
    const cases: [string, RegExp][] = [
      ['+44 7911 123456', /^\+44 7700 900\d{3}$/],
      ['(020) 3123 4567', /^\(020\) 7946 0\d{3}$/],
      ['+1 415 867 5309', /^\+1 415 555 01\d{2}$/],
      ['(415) 867-5309', /^\(415\) 555-01\d{2}$/],
    ];
    for (const [raw, expected] of cases) {
      const [first] = standIns('PHONE', raw);
      assert.match(first, expected);
      const hints = { countries: ['GB', 'US'] };
      assert.deepEqual(detect('PHONE', `Tel ${first}.`, hints).found, [], first);
    }
  });

  it('elsewhere keeps the country code and length with a number libphonenumber refuses', () => {
    const raw = '+91 98765 43210';
    const [first] = standIns('PHONE', raw);
    assert.equal(shape(first), shape(raw));
    assert.ok(first.startsWith('+91 '));
    assert.deepEqual(detect('PHONE', `Tel ${first}.`), { found: [], rejected: [] });
  });
});

describe('IP_ADDRESS', () => {
  it('takes an IPv6 address whose :: OCR read as one colon, but no MAC, hex dump or time', () => {
    const text =
      'Blocked 2a01:c6cf:3113:2385:4851:ed5 twice; MAC 00:1a:2b:3c:4d:5e, dump de:ad:be:ef:00:01:02, at 12:30:45.';
    const ocr = { countries: [], ocr: true };
    const result = findGlobalInText(text, [rule('IP_ADDRESS')], ocr);
    assert.deepEqual(
      result.findings.map((f) => text.slice(f.start, f.end)),
      ['2a01:c6cf:3113:2385:4851:ed5'],
    );
    assert.match(result.findings[0]?.rule ?? '', /lost/);
    // The documentation range stays reserved, lost colon or not.
    assert.deepEqual(detect('IP_ADDRESS', 'from 2001:db8:85a3:8a2e:370:7334', ocr).found, []);
  });

  it('takes no run of six or seven hex groups for an address in typed text', () => {
    for (const run of [
      '2a01:c6cf:3113:2385:4851:ed5',
      'fe80:1:2:3:4:5:6',
      'abcd:ef01:2345:6789:abcd:ef01:2345',
    ]) {
      assert.deepEqual(detect('IP_ADDRESS', `id ${run} end`), { found: [], rejected: [] });
    }
    // Eight groups, or a `::`, are addresses in any text.
    assert.deepEqual(
      detect('IP_ADDRESS', 'at 2a01:c6cf:3113:2385:4851:ed5:1:2 and 2a01:c6cf::ed5').found,
      ['2a01:c6cf:3113:2385:4851:ed5:1:2', '2a01:c6cf::ed5'],
    );
  });

  it('finds IPv4 and IPv6 addresses with prefix and zone', () => {
    const text =
      'Login from 8.8.4.4 (net 10.0.0.0/8); v6 2606:4700:4700::1111, fe80::1ff:fe23:4567:890a%eth0\n' +
      'and 2a00:1450:4001:0829:0000:0000:0000:200e.';
    assert.deepEqual(detect('IP_ADDRESS', text), {
      found: [
        '8.8.4.4',
        '10.0.0.0/8',
        '2606:4700:4700::1111',
        'fe80::1ff:fe23:4567:890a%eth0',
        '2a00:1450:4001:0829:0000:0000:0000:200e',
      ],
      rejected: [],
    });
  });

  it('refuses bad octets and the documentation ranges; takes no clock time or version', () => {
    const text =
      'a 256.1.1.1 b 01.2.3.4 c 192.0.2.7 d 2001:db8::1 e 3fff:0fff::1 f 1.2.3.4.5 at 12:30:45,' +
      ' version 1.2.3.4, v10.0.0.1';
    assert.deepEqual(detect('IP_ADDRESS', text), {
      found: [],
      rejected: [
        ['256.1.1.1', 'format'],
        ['01.2.3.4', 'format'],
        ['192.0.2.7', 'reserved'],
        ['2001:db8::1', 'reserved'],
        ['3fff:0fff::1', 'reserved'],
      ],
    });
  });

  it('stands in from RFC 5737 and RFC 3849, version, prefix and form kept', () => {
    const v4 = standIns('IP_ADDRESS', '10.20.30.40/24')[0];
    assert.match(v4, /^(?:192\.0\.2|198\.51\.100|203\.0\.113)\.\d{1,3}\/24$/);
    const v6 = standIns('IP_ADDRESS', 'fe80::1ff:fe23:4567:890a')[0];
    assert.match(v6, /^2001:db8::[0-9a-f]{1,4}:[0-9a-f]{1,4}$/);
    const full = standIns('IP_ADDRESS', '2A00:1450:4001:0829:0000:0000:0000:200E')[0];
    assert.match(full, /^2001:0DB8(?::[0-9A-F]{4}){6}$/);
    for (const s of [v4, v6, full]) {
      assert.deepEqual(detect('IP_ADDRESS', s), { found: [], rejected: [[s, 'reserved']] });
    }
  });
});

describe('MAC_ADDRESS', () => {
  it('finds colon, hyphen and Cisco forms', () => {
    const text = 'wlan0 3c:22:fb:1a:2b:3c, eth 3C-22-FB-1A-2B-3D; switch 3c22.fb1a.2b3e.';
    assert.deepEqual(detect('MAC_ADDRESS', text), {
      found: ['3c:22:fb:1a:2b:3c', '3C-22-FB-1A-2B-3D', '3c22.fb1a.2b3e'],
      rejected: [],
    });
  });

  it('refuses broadcast and documentation addresses; mixed separators are no candidate', () => {
    const text =
      'a FF:FF:FF:FF:FF:FF b 00-00-5E-00-53-01 c 3c:22-fb:1a:2b:3c d 3c:22:fb:1a:2b:3c:4d';
    assert.deepEqual(detect('MAC_ADDRESS', text), {
      found: [],
      rejected: [
        ['FF:FF:FF:FF:FF:FF', 'format'],
        ['00-00-5E-00-53-01', 'reserved'],
      ],
    });
  });

  it('stands in from the RFC 9542 documentation block in the same form', () => {
    for (const raw of ['3c:22:fb:1a:2b:3c', '3C-22-FB-1A-2B-3D', '3c22.fb1a.2b3e']) {
      const [first] = standIns('MAC_ADDRESS', raw);
      assert.equal(shape(first).replace(/[9Aa]/g, 'x'), shape(raw).replace(/[9Aa]/g, 'x'));
      assert.match(first.replace(/[:.-]/g, '').toUpperCase(), /^00005E0053[0-9A-F]{2}$/);
      assert.deepEqual(detect('MAC_ADDRESS', first), {
        found: [],
        rejected: [[first, 'reserved']],
      });
    }
    const multicast = standIns('MAC_ADDRESS', '01:00:5e:7f:ff:fa')[0];
    assert.match(multicast, /^01:00:5e:90:10:[0-9a-f]{2}$/);
  });
});

describe('CRYPTO_BTC', () => {
  // Bitcoin wiki and BIP-173/BIP-350 vectors.
  const P2PKH = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
  const P2SH = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
  const P2WPKH = 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4';
  const P2WSH = 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3';
  const P2TR = 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0';

  it('finds Base58Check, Bech32 and Bech32m (Taproot) addresses', () => {
    const text = `Send to ${P2PKH} or ${P2SH}.\nSegWit: ${P2WPKH}, ${P2WSH};\ntaproot ${P2TR}`;
    assert.deepEqual(detect('CRYPTO_BTC', text), {
      found: [P2PKH, P2SH, P2WPKH, P2WSH, P2TR],
      rejected: [],
    });
  });

  it('refuses broken checksums, the wrong Bech32 variant and a bad program length', () => {
    const taprootAsBech32 = 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd';
    const text = [
      '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5',
      taprootAsBech32,
      'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P',
    ].join(' and ');
    assert.deepEqual(detect('CRYPTO_BTC', text).rejected, [
      ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', 'checksum'],
      ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'checksum'],
      [taprootAsBech32, 'checksum'],
      ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'length'],
    ]);
  });

  it('restores one look-alike letter read in the wrong case (OCR), checked by the checksum', () => {
    const misread = P2PKH.replace('Bv', 'BV'); // v and V differ only in size
    const result = findGlobalInText(`wallet ${misread}`, [rule('CRYPTO_BTC')]);
    assert.equal(result.findings.length, 1);
    assert.match(result.findings[0]?.rule ?? '', /wrong case/);
    // A changed character is no case slip: still refused.
    assert.deepEqual(detect('CRYPTO_BTC', P2PKH.replace('Bv', 'Bw')).found, []);
  });

  it('takes no mixed-case Bech32 (the pattern reads one case) and refuses it if asked', () => {
    const mixed = 'bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
    assert.deepEqual(detect('CRYPTO_BTC', `to ${mixed}`), { found: [], rejected: [] });
    assert.deepEqual(rule('CRYPTO_BTC').validate(mixed), {
      valid: false,
      rule: 'Bech32 (v0) / Bech32m (v1-16) checksum, witness program length',
      reason: 'format',
    });
  });

  it('stands in with the same kind and length, checksum broken', () => {
    for (const raw of [P2PKH, P2SH, P2WPKH, P2WSH, P2TR]) {
      const [first] = standIns('CRYPTO_BTC', raw);
      assert.equal(first.length, raw.length, raw);
      assert.equal(
        first.slice(0, 4).replace(/^[13].*/, raw[0] ?? ''),
        raw.slice(0, 4).replace(/^[13].*/, raw[0] ?? ''),
      );
      assert.deepEqual(detect('CRYPTO_BTC', first), { found: [], rejected: [[first, 'checksum']] });
    }
  });
});

describe('CRYPTO_ETH', () => {
  // EIP-55's own vectors: checksummed, all caps, all lower.
  const SUMMED = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  ];
  const CAPS = '0x52908400098527886E0F7030069857D2E4169EE7';
  const LOWER = '0xde709f2102306220921060314715629080e2fb77';

  it('reads an OCR prefix Ox as 0x', () => {
    const text = `ETH wallet O${SUMMED[0]?.slice(1) ?? ''} received it`;
    const result = findGlobalInText(text, [rule('CRYPTO_ETH')]);
    assert.deepEqual(
      result.findings.map((f) => [text.slice(f.start, f.end), f.value]),
      [[`O${SUMMED[0]?.slice(1) ?? ''}`, SUMMED[0]]],
    );
  });

  it('finds checksummed and single-case addresses, the checksummed surer', () => {
    const text = `Wallet ${SUMMED[0]}, ${SUMMED[1]};\n${CAPS} and ${LOWER}.`;
    const result = findGlobalInText(text, [rule('CRYPTO_ETH')]);
    assert.deepEqual(
      result.findings.map((f) => [text.slice(f.start, f.end), f.confidence > 0.9]),
      [
        [SUMMED[0], true],
        [SUMMED[1], true],
        [CAPS, false],
        [LOWER, false],
      ],
    );
  });

  it('refuses mixed case against EIP-55 and takes no 39 or 41 digits', () => {
    const flipped = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';
    const text = `a ${flipped} b 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe c ${SUMMED[0]}0`;
    assert.deepEqual(detect('CRYPTO_ETH', text), { found: [], rejected: [[flipped, 'checksum']] });
  });

  it('stands in with a random account in mixed case that breaks EIP-55', () => {
    for (const raw of [SUMMED[0] ?? '', LOWER]) {
      const [first] = standIns('CRYPTO_ETH', raw);
      assert.match(first, /^0x[0-9a-fA-F]{40}$/);
      assert.ok(/[a-f]/.test(first.slice(2)) && /[A-F]/.test(first), 'mixed case');
      assert.deepEqual(detect('CRYPTO_ETH', first), { found: [], rejected: [[first, 'checksum']] });
    }
  });
});

describe('SWIFT_BIC', () => {
  it('finds 8- and 11-character BICs and refuses unknown countries and digits in the bank', () => {
    const text =
      'BIC: DEUTDEFF; SWIFT NEDSZAJJXXX (branch). Not DEUTZZFF nor DEU1DEFF nor deutdeff.';
    assert.deepEqual(detect('SWIFT_BIC', text), {
      found: ['DEUTDEFF', 'NEDSZAJJXXX'],
      rejected: [
        ['DEUTZZFF', 'country'],
        ['DEU1DEFF', 'format'],
      ],
    });
  });

  it('stands in with country ZZ, branch XXX kept', () => {
    const [first] = standIns('SWIFT_BIC', 'NEDSZAJJXXX');
    assert.match(first, /^[A-Z]{4}ZZ[A-Z]{2}XXX$/);
    assert.deepEqual(detect('SWIFT_BIC', first), { found: [], rejected: [[first, 'country']] });
    const [eight] = standIns('SWIFT_BIC', 'DEUTDEFF');
    assert.equal(shape(eight), 'AAAAAAAA');
  });
});

describe('DATE_OF_BIRTH', () => {
  it('finds dates only after a birth-date label', () => {
    const text =
      'DOB: 12/03/1985, issued 01/02/2020.\nBorn 12th March 1985 in Leeds. Date of birth\n1985-03-12\n' +
      'né le 12.03.1985; born on March 12th, 1985; D.O.B. 12-Mar-85';
    assert.deepEqual(detect('DATE_OF_BIRTH', text), {
      found: [
        '12/03/1985',
        '12th March 1985',
        '1985-03-12',
        '12.03.1985',
        'March 12th, 1985',
        '12-Mar-85',
      ],
      rejected: [['01/02/2020', 'context']],
    });
  });

  it('refuses impossible, future and too old dates', () => {
    const text = 'DOB 31/02/1985. DOB 12/03/2199. DOB 1850-01-01. DOB 29/02/1984.';
    assert.deepEqual(detect('DATE_OF_BIRTH', text), {
      found: ['29/02/1984'],
      rejected: [
        ['31/02/1985', 'date'],
        ['12/03/2199', 'date'],
        ['1850-01-01', 'date'],
      ],
    });
  });

  it('stands in with an impossible date in the same format', () => {
    const cases: [string, RegExp][] = [
      ['12/03/1985', /^3[01]\/(?:02|04|06|09|11)\/198[2-8]$/],
      ['1985-03-12', /^198[2-8]-(?:02|04|06|09|11)-3[01]$/],
      ['12th March 1985', /^3(?:0th|1st) (?:February|April|June|September|November) 198[2-8]$/],
      ['12-MAR-85', /^3[01]-(?:FEB|APR|JUN|SEP|NOV)-8[2-8]$/],
    ];
    for (const [raw, expected] of cases) {
      const [first] = standIns('DATE_OF_BIRTH', raw);
      assert.match(first, expected);
      assert.deepEqual(detect('DATE_OF_BIRTH', `DOB ${first}`), {
        found: [],
        rejected: [[first, 'date']],
      });
    }
  });
});
