/** The identifier catalogue: every declared type, and the filters the listings offer. */
import { AMERICAS } from './americas.js';
import { ASIA_PACIFIC_AFRICA } from './asia-pacific-africa.js';
import { EUROPE } from './europe.js';
import { INDIA_GLOBAL, INDIAN_TYPES } from './india.js';
import type { Category, GlobalTypeDeclaration, IndianTypeDeclaration } from './types.js';
import { UNIVERSAL } from './universal.js';

export { INDIAN_TYPES };

/** Grouped by family: universal types first, then country by country. */
export const GLOBAL_TYPES: readonly GlobalTypeDeclaration[] = [
  ...UNIVERSAL,
  ...AMERICAS,
  ...EUROPE,
  ...ASIA_PACIFIC_AFRICA,
  ...INDIA_GLOBAL,
];

export interface GlobalTypeFilter {
  /**
   * ISO-2 code: the types that apply to a document from that country, its own and the
   * universal ones. `ANY`: the universal types only.
   */
  readonly country?: string;
  readonly category?: Category;
}

export function globalTypes(filter: GlobalTypeFilter = {}): GlobalTypeDeclaration[] {
  const country = filter.country?.toUpperCase();
  return GLOBAL_TYPES.filter((t) => {
    if (filter.category !== undefined && t.category !== filter.category) return false;
    if (country === undefined) return true;
    if (country === 'ANY') return t.country === 'ANY';
    return t.country === 'ANY' || t.country === country || t.countries.includes(country);
  });
}

export function indianTypes(): readonly IndianTypeDeclaration[] {
  return INDIAN_TYPES;
}
