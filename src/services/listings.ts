/** The type listings: what the catalogue declares, for the API and the CLI. */
import { globalTypes, indianTypes, type GlobalTypeFilter } from '../identifiers/catalogue.js';
import {
  CATEGORIES,
  type Category,
  type GlobalTypeDeclaration,
  type IndianTypeDeclaration,
} from '../identifiers/types.js';

export { loadRulePlugins } from '../identifiers/plugins.js';
export { CATEGORIES, type Category, type GlobalTypeDeclaration, type IndianTypeDeclaration };

export function listIndianTypes(): readonly IndianTypeDeclaration[] {
  return indianTypes();
}

export function listGlobalTypes(filter: GlobalTypeFilter = {}): GlobalTypeDeclaration[] {
  return globalTypes(filter);
}
