import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GLOBAL_RULES } from '../../src/identifiers/catalogue.js';
import { TEXT_FORMS } from '../../src/redaction/operators/by-mode.js';
import { StandIns } from '../../src/redaction/stand-ins.js';
import { replaceFindings } from '../../src/redaction/text-replace.js';

const TEXT = 'Mail a@b.io or c@d.io, again a@b.io.';
const FINDINGS = [
  { type: 'EMAIL', value: 'a@b.io', start: 5, end: 11 },
  { type: 'EMAIL', value: 'c@d.io', start: 15, end: 21 },
  { type: 'EMAIL', value: 'a@b.io', start: 29, end: 35 },
];
const OPTIONS = { rules: GLOBAL_RULES, maskKeep: 2 };

describe('values replaced in text', () => {
  it('replaces each value and copies the text between them', () => {
    const tokens = replaceFindings(TEXT, FINDINGS, TEXT_FORMS.token, OPTIONS, new StandIns());
    assert.equal(tokens, 'Mail [EMAIL_1] or [EMAIL_2], again [EMAIL_1].');
    const masked = replaceFindings(TEXT, FINDINGS, TEXT_FORMS.mask, OPTIONS, new StandIns());
    assert.equal(masked, 'Mail *@*.io or *@*.io, again *@*.io.');
  });

  it('leaves text without values as it is', () => {
    assert.equal(replaceFindings('none', [], TEXT_FORMS.box, OPTIONS, new StandIns()), 'none');
  });
});
