import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { token } from '../../../src/redaction/operators/token.js';
import { StandIns } from '../../../src/redaction/stand-ins.js';

describe('token operator', () => {
  it('gives [TYPE_n], the same value the same token, n counting values of the type', () => {
    const context = { rule: undefined, maskKeep: 4, standIns: new StandIns() };
    const email = (value: string) => token.text({ type: 'EMAIL', value }, value, context);
    assert.equal(email('a@b.io'), '[EMAIL_1]');
    assert.equal(email('c@d.io'), '[EMAIL_2]');
    assert.equal(email('a@b.io'), '[EMAIL_1]');
    assert.equal(
      token.text({ type: 'US_SSN', value: '123456789' }, '123-45-6789', context),
      '[US_SSN_1]',
    );
  });

  it('starts again in the next request (stand-ins of their own)', () => {
    const next = { rule: undefined, maskKeep: 4, standIns: new StandIns() };
    assert.equal(token.text({ type: 'EMAIL', value: 'c@d.io' }, 'c@d.io', next), '[EMAIL_1]');
  });
});
