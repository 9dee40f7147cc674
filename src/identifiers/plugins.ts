/**
 * Rule plugins: the operator's way to add global types without changing Parda. Each path in
 * `PARDA_RULE_PLUGINS` is an ES module whose default export is a GlobalRule or an array of
 * them; every process imports them at start-up and registers them (catalogue.ts), after which
 * they are listed, selectable and detected like the built-in types.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { registerGlobalRule, RuleRegistrationError } from './catalogue.js';
import type { GlobalRule } from './global-rule.js';

export class RulePluginError extends Error {
  override name = 'RulePluginError';
}

const looksLikeRule = (value: unknown): value is GlobalRule =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as GlobalRule).type === 'string' &&
  typeof (value as GlobalRule).validate === 'function' &&
  typeof (value as GlobalRule).compact === 'function' &&
  typeof (value as GlobalRule).pseudonym === 'function';

/** Imports and registers the rules of every module; returns the types added. */
export async function loadRulePlugins(paths: readonly string[]): Promise<string[]> {
  const added: string[] = [];
  for (const file of paths) {
    let module: { default?: unknown };
    try {
      module = (await import(pathToFileURL(path.resolve(file)).href)) as { default?: unknown };
    } catch {
      throw new RulePluginError(`The rule plugin ${file} could not be imported.`);
    }
    const exported = module.default;
    const rules: unknown[] = Array.isArray(exported) ? exported : [exported];
    if (rules.length === 0 || !rules.every(looksLikeRule)) {
      throw new RulePluginError(
        `The rule plugin ${file} must export by default a GlobalRule or an array of them.`,
      );
    }
    for (const rule of rules) {
      try {
        registerGlobalRule(rule);
      } catch (error) {
        if (error instanceof RuleRegistrationError) {
          throw new RulePluginError(`The rule plugin ${file}: ${error.message}`);
        }
        throw error;
      }
      added.push(rule.type);
    }
  }
  return added;
}
