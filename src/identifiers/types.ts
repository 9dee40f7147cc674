/**
 * What the catalogue declares about each identifier type. Later issues add pattern,
 * validator, preview and pseudonym to these declarations; the listings read the rows.
 */

/** Categories of global entity types, the values of `GET /global/entity-types?category=`. */
export const CATEGORIES = [
  'travel_document',
  'national_id',
  'tax_id',
  'financial',
  'health',
  'contact',
  'network',
  'crypto',
  'personal',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** A type of `/api/v1/redact-pii` (lower-case names, Indian documents). */
export interface IndianTypeDeclaration {
  readonly type: string;
  readonly shape: string;
  readonly description: string;
  readonly enabledByDefault: boolean;
}

/** A type of the global endpoints (upper-case names). */
export interface GlobalTypeDeclaration {
  readonly type: string;
  /** ISO 3166-1 alpha-2 code, `EU`, or `ANY` for universal types. */
  readonly country: string;
  /** The ISO-2 countries where the type applies; empty for universal types. */
  readonly countries: readonly string[];
  readonly category: Category;
  readonly validation: string;
  readonly description: string;
  readonly enabledByDefault: boolean;
}
