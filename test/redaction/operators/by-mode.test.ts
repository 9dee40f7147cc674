import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { operatorFor, TEXT_FORMS } from '../../../src/redaction/operators/by-mode.js';
import { BOX_RUN } from '../../../src/redaction/operators/box.js';
import { MODES } from '../../../src/redaction/operators/types.js';
import { StandIns } from '../../../src/redaction/stand-ins.js';
import { assertChangedOnly, patterned } from '../../helpers/raster.js';
import { quad } from '../../helpers/text-layer.js';

const REGION = quad(4.5, 2.5, 10, 6);
const replacement = { quad: REGION, textQuad: REGION, source: 'ocr', text: 'X' } as const;

describe('the operator of each mode', () => {
  it('has a PDF form and a text form for every mode but blur', () => {
    for (const mode of MODES) {
      const operator = operatorFor(mode);
      assert.equal(operator.pdf === null, mode === 'blur', mode);
      assert.equal(operator.text === null, mode === 'blur', mode);
      assert.equal(operator.draw === null, mode === 'box' || mode === 'blur', mode);
    }
  });

  it('covers a replacement black in box mode, its text not drawn', () => {
    const image = patterned(40, 20);
    const out = operatorFor('box').image(image, [replacement]);
    assertChangedOnly(image, out, { x0: 4, y0: 2, x1: 14, y1: 8 }, (pixel) => {
      assert.deepEqual(pixel, [0, 0, 0]);
    });
  });

  it('gives the text forms of the text modes', () => {
    const context = { rule: undefined, maskKeep: 2, standIns: new StandIns() };
    const found = { type: 'EMAIL', value: 'a@b.io' };
    assert.equal(TEXT_FORMS.box(found, 'a@b.io', context), BOX_RUN);
    assert.equal(TEXT_FORMS.mask(found, 'a@b.io', context), '*@*.io');
    assert.equal(TEXT_FORMS.token(found, 'a@b.io', context), '[EMAIL_1]');
    assert.equal(TEXT_FORMS.pseudonym(found, 'a@b.io', context), '[EMAIL_1]');
  });
});
