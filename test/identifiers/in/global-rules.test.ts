/**
 * India's global types are the same catalogue entries as /redact-pii's, under other names: the
 * two views find the same values in the same text, with the same check and the same reasons.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findGlobalInText, findIndianInText } from '../../../src/detection/text-finder.js';
import { INDIA_GLOBAL } from '../../../src/identifiers/in/global-rules.js';
import { indianRule } from '../../../src/identifiers/in/redact-pii-rules.js';

const global = (type: string) => {
  const rule = INDIA_GLOBAL.find((r) => r.type === type);
  assert.ok(rule, type);
  return rule;
};

const VIEWS = [
  ['aadhaar', 'IN_AADHAAR'],
  ['pan', 'IN_PAN'],
] as const;

const TEXT = [
  'Aadhaar 2345 6789 0124 and 7603 98604900 (one space dropped by a scan)',
  'VID 2345 6789 0124 5678 is no Aadhaar number; 1234 5678 9012 starts with 1',
  'PAN: ACUPA7085R, not AAPPV0000K (serial 0000), GSTIN 27ACUPA7085R1Z3',
].join('\n');

describe('the /redact-pii and global views of India', () => {
  for (const [indian, globalName] of VIEWS) {
    it(`${indian} and ${globalName} share pattern, check and labels`, () => {
      const a = indianRule(indian);
      const b = global(globalName);
      assert.equal(a.pattern.source, b.pattern?.source);
      assert.equal(a.validate, b.validate);
      assert.equal(a.compact, b.compact);
      assert.equal(a.labels, b.labels);
    });

    it(`${indian} and ${globalName} find the same spans and refuse the same candidates`, () => {
      const spans = (r: { start: number; end: number }) => [r.start, r.end];
      const mine = findIndianInText(TEXT, [indian]);
      const theirs = findGlobalInText(TEXT, [global(globalName)]);
      assert.ok(mine.findings.length > 0);
      assert.deepEqual(mine.findings.map(spans), theirs.findings.map(spans));
      assert.deepEqual(
        mine.findings.map((f) => f.value),
        theirs.findings.map((f) => f.value),
      );
      const reasons = (list: readonly { reason: string }[]) => list.map((r) => r.reason).sort();
      assert.deepEqual(reasons(mine.rejected), reasons(theirs.rejected));
    });
  }

  it('reads a number with one space dropped and refuses the leading 1 and the zero serial', () => {
    const found = findGlobalInText(TEXT, [global('IN_AADHAAR'), global('IN_PAN')]);
    assert.deepEqual(
      found.findings.map((f) => [f.type, f.value]),
      [
        ['IN_AADHAAR', '234567890124'],
        ['IN_AADHAAR', '760398604900'],
        ['IN_PAN', 'ACUPA7085R'],
      ],
    );
    assert.deepEqual(found.rejected.map((r) => [r.type, r.reason]).sort(), [
      ['IN_AADHAAR', 'prefix'],
      ['IN_PAN', 'serial'],
    ]);
  });
});
