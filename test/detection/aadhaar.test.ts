import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findAadhaar, findAadhaarOnPage } from '../../src/detection/aadhaar.js';
import { line, page } from '../helpers/text-layer.js';

const VALID = '234567890124';
const grouped = (d: string) => `${d.slice(0, 4)} ${d.slice(4, 8)} ${d.slice(8)}`;

function found(text: string): string[] {
  return findAadhaarOnPage(page([line(text)])).findings.map((f) => f.value);
}

describe('finding Aadhaar numbers', () => {
  it('finds a grouped or run-together Verhoeff-valid number, with a quad per digit', () => {
    const result = findAadhaarOnPage(page([line(`Aadhaar No.: ${grouped(VALID)}`, { x: 0 })]));
    assert.equal(result.findings.length, 1);
    const [finding] = result.findings;
    assert.ok(finding);
    assert.equal(finding.value, VALID);
    assert.equal(finding.rule, 'verhoeff');
    assert.equal(finding.charQuads.length, 12);
    // "Aadhaar No.: " is 13 chars; digit 5 (index 4) is after the first group and a space.
    assert.equal(finding.charQuads[0]?.[0].x, 130);
    assert.equal(finding.charQuads[4]?.[0].x, 180);
    assert.equal(finding.charQuads[11]?.[0].x, 260);
    assert.deepEqual(found(VALID), [VALID]);
    assert.deepEqual(found(`${VALID.slice(0, 4)} ${VALID.slice(4)}`), [VALID]);
    assert.deepEqual(found(`${VALID.slice(0, 4)}-${VALID.slice(4, 8)}-${VALID.slice(8)}`), [VALID]);
  });

  it('never reports a number that fails Verhoeff or starts with 0 or 1', () => {
    const result = findAadhaarOnPage(page([line('2345 6789 0123'), line('1234 5678 9012')]));
    assert.deepEqual(result.findings, []);
    assert.deepEqual(result.rejected.map((r) => r.reason).sort(), ['checksum', 'first_digit']);
    assert.ok(!JSON.stringify(result.rejected).includes('2345'), 'rejections carry no value');
  });

  it('repairs OCR confusions only when the repaired number validates', () => {
    const misread = grouped(VALID).replace('0', 'O').replace('1', 'l');
    const result = findAadhaarOnPage(page([line(misread)]));
    assert.deepEqual(
      result.findings.map((f) => [f.value, f.rule]),
      [[VALID, 'verhoeff_after_ocr_repair']],
    );
    assert.deepEqual(found('2345 6789 O123'), []);
    assert.deepEqual(found('2S4B 6789 OI24'), [], 'more than two repairs is a guess');
  });

  it('does not read words as digits', () => {
    assert.deepEqual(found(`NO ${grouped(VALID)}`), [VALID]);
    assert.deepEqual(found(`IS ${grouped(VALID)} OK`), [VALID]);
  });

  it('never flags phone numbers, dates, order ids or windows of longer numbers', () => {
    const negatives = [
      `+91 ${VALID}`,
      `Mobile: ${grouped(VALID)}`,
      `Phone ${VALID}`,
      `Order #${grouped(VALID)}`,
      `Invoice No. ${grouped(VALID)}`,
      `A/c ${VALID}`,
      '+91 98765 43210',
      'DOB: 12/05/1990',
      `VID : ${grouped(VALID)} 1234`,
      `${VALID}5`,
      `${grouped(VALID)}5`,
      `2345 67 89 0124`,
    ];
    for (const text of negatives) assert.deepEqual(found(text), [], text);
  });

  it('reports findings of every page with their page index', () => {
    const layer = { pages: [page([line('nothing here')], 0), page([line(grouped(VALID))], 1)] };
    assert.deepEqual(
      findAadhaar(layer).findings.map((f) => f.page),
      [1],
    );
  });

  it('fails closed on an Aadhaar card or letter and after an Aadhaar label', () => {
    const failing = '2345 6789 0123'; // fails Verhoeff
    const onCard = findAadhaarOnPage(
      page([
        line('GOVERNMENT OF INDIA', { y: 10 }),
        line('Priya Sharma', { y: 40 }),
        line(failing, { y: 70 }),
        line('1234 5678 9012', { y: 100 }), // first digit 1: a misread too
        line('मेरा आधार, मेरी पहचान', { y: 130 }),
      ]),
    );
    assert.deepEqual(
      onCard.findings.map((f) => [f.value, f.rule, f.charQuads.length]),
      [
        ['234567890123', 'unverified', 12],
        ['123456789012', 'unverified', 12],
      ],
    );
    // After a label on the line, or on the line right above, in any document.
    assert.deepEqual(
      findAadhaarOnPage(page([line(`Your Aadhaar No. : ${failing}`)])).findings.map((f) => f.rule),
      ['unverified'],
    );
    assert.deepEqual(
      findAadhaarOnPage(page([line('आधार संख्या', { y: 10 }), line(failing, { y: 40 })])).findings
        .length,
      1,
    );
    assert.deepEqual(
      findAadhaarOnPage(page([line('ஆதார் எண்', { y: 10 }), line(failing, { y: 40 })])).findings
        .length,
      1,
      'a regional-script label',
    );
  });

  it('fails closed on one or two uncertain characters, never on more, never elsewhere', () => {
    const card = (text: string) =>
      findAadhaarOnPage(
        page([line('Unique Identification Authority of India', { y: 10 }), line(text, { y: 40 })]),
      ).findings.map((f) => [f.value, f.rule, f.charQuads.length]);
    // A smudge read as a letter or "?" where a digit stands: covered, counted unverified.
    assert.deepEqual(card('2345 67A9 0124'), [['234567?90124', 'unverified', 12]]);
    assert.deepEqual(card('?345 6789 012K'), [
      ['?34567890124'.slice(0, 11) + '?', 'unverified', 12],
    ]);
    // Three are a word with digits, not a number; nor is a run of letters glued to the front.
    assert.deepEqual(card('2345 6AZ9 01K4'), []);
    assert.deepEqual(card(`Ph${grouped(VALID)}`.replace(' ', '')), []);
    // Letters glued to a valid number do not lengthen its first group.
    assert.deepEqual(card(`Nr${grouped(VALID)}`), [[VALID, 'verhoeff', 12]]);
    // After an Aadhaar label in any document too; in an ordinary one, nothing and no rejection.
    assert.equal(findAadhaarOnPage(page([line('Aadhaar: 2345 67A9 0124')])).findings.length, 1);
    const invoice = findAadhaarOnPage(page([line('Order 2345 67A9 0124')]));
    assert.deepEqual([invoice.findings, invoice.rejected], [[], []]);
  });

  it('takes the label nearest before a number, across the line break too', () => {
    const failing = '2345 6789 0123'; // fails Verhoeff
    // "Ref." ends the line that names an Aadhaar number; "No." starts the next, before the
    // reference: the reference label is nearer, so the checksum decides.
    const reference = page([
      line(`Aadhaar ${grouped(VALID)} as per your documents. For reference, Ref.`, { y: 10 }),
      line(`No. ${failing} applies to this request.`, { y: 40 }),
    ]);
    const result = findAadhaarOnPage(reference);
    assert.deepEqual(
      result.findings.map((f) => [f.value, f.rule]),
      [[VALID, 'verhoeff']],
    );
    assert.deepEqual(
      result.rejected.map((r) => r.reason),
      ['checksum'],
    );
    // The other way round: an Aadhaar label nearer than a phone's keeps the number, and fails
    // closed.
    assert.deepEqual(found(`Phone 98765 43210, Aadhaar ${grouped(VALID)}`), [VALID]);
    assert.deepEqual(
      findAadhaarOnPage(page([line(`Mobile 98765 43210 Aadhaar ${failing}`)])).findings.map(
        (f) => f.rule,
      ),
      ['unverified'],
    );
    // An Aadhaar label above, then a phone label before the number: a phone number.
    assert.deepEqual(
      findAadhaarOnPage(
        page([line('Aadhaar holder', { y: 10 }), line(`Mobile: ${failing}`, { y: 40 })]),
      ).findings,
      [],
    );
  });

  it('lets the checksum decide in ordinary documents and keeps other numbers off a card', () => {
    // An invoice: same shape, no Aadhaar card or label, so the check digit decides.
    const invoice = page([
      line('TAX INVOICE', { y: 10 }),
      line('Customer ID 2345 6789 0123', { y: 40 }),
      line('2345 6789 0123', { y: 70 }),
    ]);
    assert.deepEqual(findAadhaarOnPage(invoice).findings, []);
    // On a card: a phone label still rules a number out, and only the printed 4-4-4 shape is
    // covered without a valid check digit (a run of twelve digits may be anything).
    const card = page([
      line('Unique Identification Authority of India', { y: 10 }),
      line('Mobile: 2345 6789 0123', { y: 40 }),
      line('234567890123', { y: 70 }),
    ]);
    const result = findAadhaarOnPage(card);
    assert.deepEqual(result.findings, []);
    assert.deepEqual(result.rejected.map((r) => r.reason).sort(), ['checksum', 'context_phone']);
  });
});
