/**
 * The identifier catalogue: every global type with its rule, the Indian type listings, and the
 * filters the listings offer. The same rules drive detection and GET /global/entity-types, so
 * the listing can never promise a type the detector does not run. `registerGlobalRule` is the
 * extension point: a deployment adds its own type (pattern, validator, stand-in) without
 * touching the detector.
 */
import { AMERICAS } from './americas.js';
import { ASIA_PACIFIC_AFRICA } from './asia-pacific-africa.js';
import { EUROPE } from './europe.js';
import type { GlobalRule } from './global-rule.js';
import { INDIA_GLOBAL } from './in/global-rules.js';
import { INDIAN_TYPES } from './in/redact-pii-types.js';
import { CATEGORIES, type Category, type IndianTypeDeclaration } from './types.js';
import { UNIVERSAL } from './universal.js';

export { INDIAN_TYPES };

/** Grouped by family: universal types first, then country by country; registered ones last. */
const rules: GlobalRule[] = [
  ...UNIVERSAL,
  ...AMERICAS,
  ...EUROPE,
  ...ASIA_PACIFIC_AFRICA,
  ...INDIA_GLOBAL,
];

export const GLOBAL_RULES: readonly GlobalRule[] = rules;
/** The rules as the listings see them (declarations). */
export const GLOBAL_TYPES: readonly GlobalRule[] = rules;

export class RuleRegistrationError extends Error {
  override name = 'RuleRegistrationError';
}

/**
 * Adds a type to the catalogue, for detection and the listings alike. Its name is upper-case
 * letters, digits and `_`, and new; it has a global pattern or a finder; its country is an ISO-2
 * code or `ANY`.
 */
export function registerGlobalRule(rule: GlobalRule): void {
  if (!/^[A-Z][A-Z0-9_]{1,40}$/.test(rule.type)) {
    throw new RuleRegistrationError('A type name is upper-case letters, digits and _.');
  }
  if (rules.some((r) => r.type === rule.type)) {
    throw new RuleRegistrationError(`The type ${rule.type} exists already.`);
  }
  if (!rule.find && !rule.pattern?.global) {
    throw new RuleRegistrationError(`${rule.type} needs a global (g) pattern or a finder.`);
  }
  if (rule.country !== 'ANY' && !/^[A-Z]{2}$/.test(rule.country)) {
    throw new RuleRegistrationError(`${rule.type}: country is an ISO-2 code or ANY.`);
  }
  if (!CATEGORIES.includes(rule.category)) {
    throw new RuleRegistrationError(`${rule.type}: category is one of ${CATEGORIES.join(', ')}.`);
  }
  rules.push(rule);
}

export interface GlobalTypeFilter {
  /**
   * ISO-2 code: the types that apply to a document from that country, its own and the
   * universal ones. `ANY`: the universal types only.
   */
  readonly country?: string;
  readonly category?: Category;
}

export function globalTypes(filter: GlobalTypeFilter = {}): GlobalRule[] {
  const country = filter.country?.toUpperCase();
  return rules.filter((t) => {
    if (filter.category !== undefined && t.category !== filter.category) return false;
    if (country === undefined) return true;
    if (country === 'ANY') return t.country === 'ANY';
    return t.country === 'ANY' || t.country === country || t.countries.includes(country);
  });
}

export function indianTypes(): readonly IndianTypeDeclaration[] {
  return INDIAN_TYPES;
}
