import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readAadhaarCard } from '../../src/cards/aadhaar-fields.js';
import { readPanCard } from '../../src/cards/pan-fields.js';
import { findAadhaarOnPage } from '../../src/detection/aadhaar.js';
import { UNVERIFIED_RULE } from '../../src/detection/aadhaar-context.js';
import type { Quad } from '../../src/domain/geometry.js';
import { line, page } from '../helpers/text-layer.js';

/** Lines stacked 30 px apart from y = 10, as a card prints them. */
function stacked(texts: readonly string[], x = 10) {
  return texts.map((text, i) => line(text, { x, y: 10 + 30 * i }));
}

describe('Aadhaar card text', () => {
  it('reads a front: the name above the date of birth, gender, the number', () => {
    const card = readAadhaarCard([
      page(
        stacked([
          'Government of India',
          'Rahul Sharma',
          'DOB: 14/02/1987',
          '/ MALE',
          '2345 6789 0124',
        ]),
      ),
    ]);
    assert.equal(card.front, true);
    assert.equal(card.back, false);
    assert.equal(card.name?.value, 'Rahul Sharma');
    assert.equal(card.dateOfBirth?.value, '1987-02-14');
    assert.equal(card.yearOfBirth, null);
    assert.equal(card.gender?.value, 'M');
    assert.equal(card.number?.value, '234567890124');
    assert.equal(card.checksumValid, true);
  });

  it('gives a year only when only a year is printed, and never a date from it', () => {
    const card = readAadhaarCard([
      page(stacked(['Priya Gupta', 'Year of Birth : 1990', 'FEMALE'])),
    ]);
    assert.equal(card.dateOfBirth, null);
    assert.equal(card.yearOfBirth?.value, 1990);
    assert.equal(card.birthLabel, 'year');
    assert.equal(card.gender?.value, 'F');
  });

  it('reads an older front: the relation line is care_of, never the name', () => {
    for (const [relation, careOf] of [
      ['Father : Karan Chauhan', 'Father: Karan Chauhan'],
      ['S/O: Karan Chauhan', 'S/O: Karan Chauhan'],
      ['Husband: Karan Chauhan', 'Husband: Karan Chauhan'],
    ] as const) {
      const card = readAadhaarCard([
        page(stacked(['Ramesh Chauhan', relation, 'DOB: 24/10/2005', 'MALE', '2345 6789 0124'])),
      ]);
      assert.equal(card.name?.value, 'Ramesh Chauhan', relation);
      assert.equal(card.careOf?.value, careOf, relation);
    }
    // The label read as a line of its own, and its value beside it.
    const split = readAadhaarCard([
      page([
        ...stacked(['Ramesh Chauhan', 'Father']),
        line(': Karan Chauhan', { x: 100, y: 40 }),
        line('DOB: 24/10/2005', { y: 70 }),
      ]),
    ]);
    assert.equal(split.name?.value, 'Ramesh Chauhan');
  });

  it('takes the whole date after a year label, and a smaller date printed beside its label', () => {
    const year = readAadhaarCard([page(stacked(['Priya Gupta', 'Year of Birth : 26-11-2009']))]);
    assert.equal(year.dateOfBirth?.value, '2009-11-26');
    assert.equal(year.yearOfBirth, null);
    // The date in a smaller size: OCR reads it as a line of its own on the label's row.
    const beside = readAadhaarCard([
      page([
        line('Priya Gupta', { y: 10 }),
        line('DOB :', { y: 40 }),
        line('26/11/2009', { x: 70, y: 43, height: 14, charWidth: 7 }),
      ]),
    ]);
    assert.equal(beside.dateOfBirth?.value, '2009-11-26');
    assert.equal(beside.name?.value, 'Priya Gupta');
  });

  it('returns no date for an impossible one rather than a wrong one', () => {
    const card = readAadhaarCard([page(stacked(['Rahul Sharma', 'DOB: 31/02/1987']))]);
    assert.equal(card.dateOfBirth, null);
  });

  it('reports a printed number that fails Verhoeff with checksum_valid false', () => {
    const card = readAadhaarCard([
      page(stacked(['Rahul Sharma', 'DOB: 14/02/1987', '2345 6789 0123'])),
    ]);
    assert.equal(card.number?.value, '234567890123');
    assert.equal(card.checksumValid, false);
  });

  it('returns exactly the number masking covers: a specimen beginning with 0 on a front', () => {
    // A blurred SAMPLE front: no header read, only the holder lines and the number.
    const front = page(stacked(['Rahul Sharma', 'DOB: 14/02/1987', '/ MALE', '0123 4567 8901']));
    const card = readAadhaarCard([front]);
    assert.equal(card.number?.value, '012345678901');
    assert.equal(card.checksumValid, false);
    const covered = findAadhaarOnPage(front).findings.map((f) => [f.value, f.rule]);
    assert.deepEqual(covered, [['012345678901', UNVERIFIED_RULE]]);
  });

  it('takes nothing from a letter that names the fields in sentences', () => {
    const letter = page(
      stacked([
        'Dear Sir, your date of birth and the address on file were',
        'confirmed for the female applicant over the years. This year.',
        'Policy 2345 6789 0123 remains in force.',
      ]),
    );
    const card = readAadhaarCard([letter]);
    assert.deepEqual(
      [card.front, card.back, card.name, card.birthLabel, card.gender, card.address, card.number],
      [false, false, null, null, null, null, null],
    );
    assert.deepEqual(findAadhaarOnPage(letter).findings, []);
  });

  it('reads a back: care-of, the address and its pincode, across wrapped lines', () => {
    const card = readAadhaarCard([
      page(
        stacked([
          'Unique Identification Authority of India',
          'Address: S/O: Ramesh Sharma, H.No. 12,',
          'Gandhi Road, Civil Lines, Lucknow,',
          'Uttar Pradesh - 226010',
          '2345 6789 0124',
        ]),
      ),
    ]);
    assert.equal(card.back, true);
    assert.equal(card.careOf?.value, 'S/O: Ramesh Sharma');
    assert.deepEqual(card.address?.value, {
      full: 'H.No. 12, Gandhi Road, Civil Lines, Lucknow, Uttar Pradesh - 226010',
      pincode: '226010',
    });
  });

  it('reads the address of a card photographed at a tilt, its lines in order', () => {
    // Seven degrees: along a 400-px line the text climbs 49 px, more than the line spacing.
    const tilt = (7 * Math.PI) / 180;
    const turn = (p: { x: number; y: number }) => ({
      x: p.x * Math.cos(tilt) - p.y * Math.sin(tilt) + 100,
      y: p.x * Math.sin(tilt) + p.y * Math.cos(tilt) + 50,
    });
    const turnQuad = (q: Quad): Quad => [turn(q[0]), turn(q[1]), turn(q[2]), turn(q[3])];
    const lines = stacked([
      'Unique Identification Authority of India',
      'Address: S/O: Ramesh Sharma, H.No. 12,',
      'Gandhi Road, Civil Lines, Lucknow, Uttar',
      'Pradesh -',
      '226010',
      '2345 6789 0124',
    ]).map((l) => ({
      ...l,
      quad: turnQuad(l.quad),
      chars: l.chars.map((c) => ({ ...c, quad: turnQuad(c.quad) })),
    }));
    const card = readAadhaarCard([page(lines)]);
    assert.deepEqual(card.address?.value, {
      full: 'H.No. 12, Gandhi Road, Civil Lines, Lucknow, Uttar Pradesh - 226010',
      pincode: '226010',
    });
  });

  it('keeps the last four of a masked card and says the checksum cannot hold', () => {
    const card = readAadhaarCard([
      page(stacked(['Rahul Sharma', 'DOB: 14/02/1987', 'XXXX XXXX 0124'])),
    ]);
    assert.equal(card.number, null);
    assert.equal(card.maskedLast4?.value, '0124');
    assert.equal(card.checksumValid, false);
  });
});

describe('PAN card text', () => {
  it('reads the labelled (newer) layout without swapping the names', () => {
    const card = readPanCard([
      page(
        stacked([
          'INCOME TAX DEPARTMENT',
          'Permanent Account Number Card',
          'ACUPA7085R',
          '/ Name',
          'RAHUL SHARMA',
          "/ Father's Name",
          'MOHAN SHARMA',
          '/ Date of Birth',
          '14/02/1987',
        ]),
      ),
    ]);
    assert.equal(card.layout, 'labelled');
    assert.equal(card.pan?.value, 'ACUPA7085R');
    assert.equal(card.name?.value, 'RAHUL SHARMA');
    assert.equal(card.fatherName?.value, 'MOHAN SHARMA');
    assert.equal(card.dateOfBirth?.value, '1987-02-14');
  });

  it('reads the unlabelled (older) layout by order: holder, father, date', () => {
    const card = readPanCard([
      page(
        stacked([
          'INCOME TAX DEPARTMENT',
          'GOVT. OF INDIA',
          'RAHUL SHARMA',
          'MOHAN SHARMA',
          '14/02/1987',
          'Permanent Account Number',
          'ACUPA7085R',
        ]),
      ),
    ]);
    assert.equal(card.layout, 'unlabelled');
    assert.equal(card.name?.value, 'RAHUL SHARMA');
    assert.equal(card.fatherName?.value, 'MOHAN SHARMA');
    assert.equal(card.pan?.value, 'ACUPA7085R');
  });

  it('finds the holder above "Father\'s Name" when the "Name" label is illegible', () => {
    const card = readPanCard([
      page(
        stacked([
          'INCOME TAX DEPARTMENT',
          'Permanent Account Number Card',
          'ACUPA7085R',
          'SUNITA RAHUL PANDEY',
          "r / Father's Name",
          'RAHUL PANDEY',
          '14/02/1987',
        ]),
      ),
    ]);
    assert.equal(card.name?.value, 'SUNITA RAHUL PANDEY');
    assert.equal(card.fatherName?.value, 'RAHUL PANDEY');
  });

  it("restores the space OCR lost before the father's surname, and only there", () => {
    const read = (holder: string) =>
      readPanCard([
        page(
          stacked([
            'INCOME TAX DEPARTMENT',
            'ACUPA7085R',
            '/ Name',
            holder,
            "/ Father's Name",
            'GOPAL JOSHI',
          ]),
        ),
      ]).name?.value;
    assert.equal(read('NISHAJOSHI'), 'NISHA JOSHI');
    assert.equal(read('NISHAVERMA'), 'NISHAVERMA');
    assert.equal(read('NISHA JOSHI'), 'NISHA JOSHI');
  });
});
