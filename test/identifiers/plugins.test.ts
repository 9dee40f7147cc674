import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadSettings } from '../../src/config/settings.js';
import { globalTypes } from '../../src/identifiers/catalogue.js';
import { loadRulePlugins, RulePluginError } from '../../src/identifiers/plugins.js';
import { resolveEntityTypes } from '../../src/services/global-options.js';
import { redactText } from '../../src/services/redact-text.js';

/** A plugin as an operator writes it: plain JavaScript, no import of Parda needed. */
const PLUGIN = `
export default [{
  type: 'ACME_BADGE', country: 'ANY', countries: [], category: 'personal',
  validation: 'BDG- and five digits', description: 'Staff badge (plugin example)',
  enabledByDefault: true,
  pattern: /\\bBDG-[0-9]{5}\\b/g,
  compact: (raw) => raw.toUpperCase(),
  validate: (value) => ({ valid: true, rule: 'BDG- and five digits', confidence: 0.8 }),
  pseudonym: () => 'BDG-00000',
}];
`;

describe('rule plugins (PARDA_RULE_PLUGINS)', () => {
  it('imports each module and registers its rules for the listing and for detection', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-plugin-'));
    try {
      const file = path.join(dir, 'badge.mjs');
      fs.writeFileSync(file, PLUGIN);
      const settings = loadSettings({ PARDA_RULE_PLUGINS: ` ${file} ` });
      assert.deepEqual(settings.rulePlugins, [file]);
      assert.deepEqual(await loadRulePlugins(settings.rulePlugins), ['ACME_BADGE']);
      assert.ok(globalTypes().some((t) => t.type === 'ACME_BADGE'));
      const result = redactText('Badge BDG-12345 at the gate.', {
        rules: resolveEntityTypes(undefined, []),
        countries: [],
        mode: 'token',
        maskKeep: 4,
        maxBytes: 1000,
      });
      assert.equal(result.redactedText, 'Badge [ACME_BADGE_1] at the gate.');
      // A second load of the same types is refused, naming the plugin, not its content.
      await assert.rejects(loadRulePlugins([file]), RulePluginError);
      const bad = path.join(dir, 'bad.mjs');
      fs.writeFileSync(bad, 'export default { type: 42 };');
      await assert.rejects(loadRulePlugins([bad]), /must export by default a GlobalRule/);
      await assert.rejects(
        loadRulePlugins([path.join(dir, 'missing.mjs')]),
        /could not be imported/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
