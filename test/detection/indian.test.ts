import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findIndianOnPage } from '../../src/detection/indian.js';
import { INDIAN_TYPE_NAMES } from '../../src/identifiers/in/redact-pii-rules.js';
import { line, page } from '../helpers/text-layer.js';

const DEFAULTS = INDIAN_TYPE_NAMES.filter((t) => t !== 'bank_account');
const CHAR = 10;

/** Left and right x of a finding's boxes, and the ys of their tops. */
function extent(quads: readonly (readonly { x: number; y: number }[])[]) {
  const xs = quads.flatMap((q) => q.map((p) => p.x));
  return {
    left: Math.min(...xs),
    right: Math.max(...xs),
    tops: [...new Set(quads.map((q) => q[0]?.y))],
  };
}

describe('Indian identifiers on a page', () => {
  it('maps each value to the boxes of its characters, separators left out', () => {
    const text = 'Mobile: +91 98765 43210, PAN ACUPA7085R';
    const { findings } = findIndianOnPage(page([line(text, { x: 10, y: 10 })]), DEFAULTS);
    assert.deepEqual(
      findings.map((f) => [f.type, f.charQuads.length]),
      [
        ['phone_in', 13],
        ['pan', 10],
      ],
    );
    const phone = findings[0];
    assert.ok(phone);
    const start = text.indexOf('+91');
    assert.deepEqual(extent(phone.charQuads), {
      left: 10 + start * CHAR,
      right: 10 + (start + '+91 98765 43210'.length) * CHAR,
      tops: [10],
    });
  });

  it('finds a number broken over two lines, with the boxes on both', () => {
    const { findings } = findIndianOnPage(
      page([
        line('My Aadhaar number is 4918 7362', { y: 10 }),
        line('5102 and it was issued in 2015.', { y: 40 }),
      ]),
      DEFAULTS,
    );
    assert.equal(findings.length, 1);
    const [aadhaar] = findings;
    assert.ok(aadhaar);
    assert.equal(aadhaar.type, 'aadhaar');
    assert.equal(aadhaar.charQuads.length, 12);
    assert.deepEqual(extent(aadhaar.charQuads).tops, [10, 40]);
  });

  it('joins a token broken without a space, and finds a repeated value where it is broken', () => {
    const { findings } = findIndianOnPage(
      page([
        line('GSTIN 27AAPFU0939F1ZV; write to priya.sharma@exam', { y: 10 }),
        line('ple.in or quote GSTIN 27AAPFU09', { y: 40 }),
        line('39F1ZV again.', { y: 70 }),
      ]),
      DEFAULTS,
    );
    assert.deepEqual(
      findings.map((f) => [f.type, f.charQuads.length, extent(f.charQuads).tops]),
      [
        ['gstin', 15, [10]],
        ['email', 23, [10, 40]],
        ['gstin', 15, [40, 70]],
      ],
    );
  });

  it('reports rejected candidates by type and reason only', () => {
    // No Aadhaar label or card here: the check digit decides (with one, see below).
    const { findings, rejected } = findIndianOnPage(
      page([line('Serial 4918 7362 5108')]),
      DEFAULTS,
    );
    assert.deepEqual(findings, []);
    assert.deepEqual(rejected, [{ type: 'aadhaar', page: 0, reason: 'checksum' }]);
  });

  it('takes a label from the line above the value on the page, not from the other column', () => {
    // Two columns of a form: labels on one row, values under them. In reading order the right
    // label ("Order No.:") comes just before the left value.
    const form = page([
      line('EPIC No.:', { x: 10, y: 10 }),
      line('Order No.:', { x: 500, y: 10 }),
      line('GYK4751559', { x: 10, y: 40 }),
      line('ABC1234567', { x: 500, y: 40 }),
    ]);
    const { findings } = findIndianOnPage(form, DEFAULTS);
    // GYK4751559 fails Luhn (0.55): under its own label it stays; under "Order No." it goes.
    assert.deepEqual(
      findings.map((f) => [f.type, extent(f.charQuads).left]),
      [['voter_epic', 10]],
    );
  });

  it('does not glue a complete value to the first word of the line below', () => {
    const form = page([
      line('anita.sharma@example.in', { x: 10, y: 10 }),
      line('IFSC: SBIN0000691', { x: 10, y: 40 }),
    ]);
    const { findings } = findIndianOnPage(form, DEFAULTS);
    assert.deepEqual(
      findings.map((f) => [f.type, f.charQuads.length, extent(f.charQuads).tops]),
      [
        ['email', 23, [10]],
        ['ifsc', 11, [40]],
      ],
    );
  });

  it('covers a prefix left at the end of the line above ("(+91)" / "93245-61322")', () => {
    const { findings } = findIndianOnPage(
      page([
        line('The details on file are Mobile No. (+91)', { y: 10 }),
        line('93245-61322 as per the documents.', { y: 40 }),
      ]),
      DEFAULTS,
    );
    assert.deepEqual(
      findings.map((f) => [f.type, f.value, f.charQuads.length, extent(f.charQuads).tops]),
      [['phone_in', '919324561322', 16, [10, 40]]],
    );
  });

  it('repairs OCR look-alikes where the type wants a letter or a digit, and nowhere else', () => {
    const { findings } = findIndianOnPage(
      page([line('GSTIN 160JVCI4792OBZ9 and mobile 8001253389')]),
      DEFAULTS,
    );
    assert.deepEqual(
      findings.map((f) => [f.type, f.value]),
      [
        ['gstin', '16OJVCI4792OBZ9'],
        ['phone_in', '8001253389'],
      ],
    );
    // Capitals read as lower-case look-alikes; a valid voter ID is never "repaired" into a PAN.
    assert.deepEqual(
      findIndianOnPage(page([line('IFsC: IcIc0453040 EPIC PTW6506521')]), DEFAULTS).findings.map(
        (f) => [f.type, f.value],
      ),
      [
        ['ifsc', 'ICIC0453040'],
        ['voter_epic', 'PTW6506521'],
      ],
    );
    // A position of any character may be its look-alike too: the GSTIN's check character Z read
    // as 7, beside an I read as 1.
    assert.deepEqual(
      findIndianOnPage(page([line('GSTIN: 13SWKG16686Z977')]), DEFAULTS).findings.map((f) => [
        f.type,
        f.value,
      ]),
      [['gstin', '13SWKGI6686Z9ZZ']],
    );
    // A space OCR put inside a long structured value is taken out; two values stay two.
    assert.deepEqual(
      findIndianOnPage(
        page([line('GST No. 09LKEPV3251 L5ZA and PAN ACUPA7085R 27AAPFU0939F1ZV')]),
        DEFAULTS,
      ).findings.map((f) => [f.type, f.value, f.charQuads.length]),
      [
        ['gstin', '09LKEPV3251L5ZA', 15],
        ['pan', 'ACUPA7085R', 10],
        ['gstin', '27AAPFU0939F1ZV', 15],
      ],
    );
    // A PDF text layer is exact: nothing is repaired there.
    const pdf = {
      ...page([line('GSTIN 160JVCI4792OBZ9')]),
      source: 'pdf' as const,
      unit: 'pt' as const,
    };
    assert.deepEqual(findIndianOnPage(pdf, DEFAULTS).findings, []);
  });

  it('takes out a digit OCR read twice inside a VID or an Aadhaar number, where the check agrees', () => {
    const text = 'Virtual ID 3667 51922 0754 3969, Aadhaar 4918 73662 5102';
    const { findings } = findIndianOnPage(page([line(text, { x: 10, y: 10 })]), DEFAULTS);
    assert.deepEqual(
      findings.map((f) => [f.type, f.value, f.charQuads.length]),
      [
        ['vid', '3667519207543969', 16],
        ['aadhaar', '491873625102', 12],
      ],
    );
    // The covers span what was printed, the doubled digit included.
    const vid = findings[0];
    assert.ok(vid);
    const start = text.indexOf('3667');
    assert.deepEqual(extent(vid.charQuads), {
      left: 10 + start * CHAR,
      right: 10 + (start + '3667 51922 0754 3969'.length) * CHAR,
      tops: [10],
    });
    // A doubled digit whose removal fails the check digit, and one outside any such grouping.
    for (const other of ['Ref 3667 51922 0754 3968', 'Invoice 4918 73662 5103', 'Order 11223']) {
      assert.deepEqual(findIndianOnPage(page([line(other)]), DEFAULTS).findings, [], other);
    }
  });

  it('reads an address with a space beside its @ (OCR), and a number labelled as another type', () => {
    const { findings } = findIndianOnPage(
      page([line('Mail arjun.gupta@ example.in'), line('Bank account 07064648236', { y: 40 })]),
      DEFAULTS,
    );
    assert.deepEqual(
      findings.map((f) => [f.type, f.value]),
      [['email', 'arjun.gupta@example.in']],
    );
  });

  it('covers a 4-4-4 number that fails the check on an Aadhaar card or after its label', () => {
    const failing = '2345 6789 0123';
    const card = page([
      line('Government of India', { y: 10 }),
      line('Aadhaar', { y: 40 }),
      line(`DOB: 01/02/1990   ${failing}`, { y: 70 }),
    ]);
    const onCard = findIndianOnPage(card, DEFAULTS).findings;
    assert.deepEqual(
      onCard.map((f) => [f.type, f.value, f.rule, f.charQuads.length]),
      [['aadhaar', '234567890123', 'unverified', 12]],
    );
    const start = `DOB: 01/02/1990   `.length;
    assert.deepEqual(extent(onCard[0]?.charQuads ?? []), {
      left: 10 + start * CHAR,
      right: 10 + (start + failing.length) * CHAR,
      tops: [70],
    });
    const labelled = page([line(`Aadhaar No. ${failing}`)]);
    assert.equal(findIndianOnPage(labelled, DEFAULTS).findings[0]?.rule, 'unverified');
    // Not asked for, or in an ordinary document, the check digit decides.
    assert.deepEqual(findIndianOnPage(labelled, ['pan']).findings, []);
    const invoice = page([line('Invoice 2026-11'), line(`Policy ${failing}`, { y: 40 })]);
    assert.deepEqual(findIndianOnPage(invoice, DEFAULTS).findings, []);
  });

  it('takes a landline as phone_in after a phone label, and only mobiles without one', () => {
    const read = (text: string) =>
      findIndianOnPage(page([line(text)]), DEFAULTS).findings.map((f) => [f.type, f.value]);
    assert.deepEqual(read('Phone: 080 4123 4567'), [['phone_in', '08041234567']]);
    assert.deepEqual(read('second mobile number 011-23456789'), [['phone_in', '01123456789']]);
    assert.deepEqual(read('Tel +91 22 4123 4567'), [['phone_in', '912241234567']]);
    // No phone label: a landline is nobody's number; a mobile still is.
    assert.deepEqual(read('Office 080 4123 4567'), []);
    assert.deepEqual(read('Reach us 98765 43210'), [['phone_in', '9876543210']]);
    // A label does not make an impossible number one (toll-free, too short).
    assert.deepEqual(read('Phone 1800 123 4567'), []);
    assert.deepEqual(read('Phone 080 412 345'), []);
  });

  it('takes landlines in a table column headed Mobile, whatever value stands to their left', () => {
    const table = page([
      line('Aadhaar', { x: 10, y: 10 }),
      line('Mobile', { x: 300, y: 10 }),
      line('5742 7465 0424', { x: 10, y: 40 }),
      line('020-68363705', { x: 300, y: 40 }),
      line('6459 7349 1088', { x: 10, y: 70 }),
      line('020 3615 7966', { x: 300, y: 70 }),
      line('3020 7204 1172', { x: 10, y: 100 }),
      line('+91 33 40502496', { x: 300, y: 100 }),
    ]);
    const phones = findIndianOnPage(table, ['phone_in']).findings.map((f) => f.value);
    assert.deepEqual(phones.sort(), ['02036157966', '02068363705', '913340502496']);
    // Under another header a landline is nobody's number.
    const other = page([
      line('Office', { x: 300, y: 10 }),
      line('020-68363705', { x: 300, y: 40 }),
      line('020 3615 7966', { x: 300, y: 70 }),
    ]);
    assert.deepEqual(findIndianOnPage(other, ['phone_in']).findings, []);
  });

  it('finds bank accounts under a table header, beside a row label and after transfer phrases', () => {
    const types = ['bank_account'] as const;
    const lines = (p: ReturnType<typeof page>) =>
      findIndianOnPage(p, types).findings.map((f) => [f.value, extent(f.charQuads).tops[0]]);
    // The header stands over the first row only; every row of the column is an account.
    const table = page([
      line('Account number', { x: 10, y: 10 }),
      line('IFSC', { x: 300, y: 10 }),
      line('50100234567891', { x: 10, y: 40 }),
      line('SBIN0001234', { x: 300, y: 40 }),
      line('50100234567892', { x: 10, y: 70 }),
      line('30100234567893', { x: 10, y: 100 }),
    ]);
    assert.deepEqual(lines(table), [
      ['50100234567891', 40],
      ['50100234567892', 70],
      ['30100234567893', 100],
    ]);
    const rows = page([
      line('Account No.', { x: 10, y: 10 }),
      line('50100234567891', { x: 200, y: 10 }),
      line('Branch code', { x: 10, y: 40 }),
      line('123456789', { x: 200, y: 40 }),
    ]);
    assert.deepEqual(lines(rows), [['50100234567891', 10]]);
    const running = page([line('On 12/03 NEFT transfer to 50100234567891 was made.')]);
    assert.deepEqual(lines(running), [['50100234567891', 10]]);
    // A number column under another header, and a number after other words, are no accounts.
    const invoices = page([
      line('Invoice number', { x: 10, y: 10 }),
      line('50100234567891', { x: 10, y: 40 }),
      line('50100234567892', { x: 10, y: 70 }),
    ]);
    assert.deepEqual(lines(invoices), []);
    assert.deepEqual(lines(page([line('Invoice 50100234567891 for services')])), []);
    // "account" speaks for a bank account, never against another type's value after it.
    const linked = page([line('Your account linked to 98765 43210 is active')]);
    assert.deepEqual(
      findIndianOnPage(linked, DEFAULTS).findings.map((f) => f.type),
      ['phone_in'],
    );
  });
});
