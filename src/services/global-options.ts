/**
 * The options every global endpoint shares, checked once: `entity_types` (names from
 * /global/entity-types; empty: the types on by default), `countries` (ISO-2 codes: the
 * country-specific types are limited to those countries, universal types always apply),
 * `mode` and `mask_keep`. A wrong value is refused with its own 422 code, never ignored: the
 * caller would believe something was redacted that was not.
 */
import { GLOBAL_RULES } from '../identifiers/catalogue.js';
import type { GlobalRule } from '../identifiers/global-rule.js';
import type { Mode } from '../redaction/operators/types.js';
import { InvalidOptionError, UnknownTypeError } from './errors.js';

/** What a caller of the global redaction endpoints (file and text) chooses. */
export interface GlobalRedactChoices<M extends Mode = Mode> {
  readonly rules: readonly GlobalRule[];
  readonly countries: readonly string[];
  readonly mode: M;
  readonly maskKeep: number;
}

export const MASK_KEEP_DEFAULT = 4;
export const MASK_KEEP_MAX = 8;

/** A list option as a form field ("a, b") or as JSON (a string or an array of strings). */
export type ListOption = string | readonly unknown[] | undefined | null;

function names(raw: ListOption): string[] {
  const parts = Array.isArray(raw) ? raw.map(String) : String(raw ?? '').split(',');
  return parts.map((n) => n.trim()).filter((n) => n !== '');
}

/** What a printed name may show of itself in a message: letters, digits, `_`, 32 at most. */
const shown = (name: string) => name.replace(/[^A-Za-z0-9_]/g, '?').slice(0, 32);

export function resolveCountries(raw: ListOption): string[] {
  const codes = names(raw).map((c) => c.toUpperCase());
  const bad = codes.filter((c) => !/^[A-Z]{2}$/.test(c));
  if (bad.length > 0) {
    throw new InvalidOptionError(
      'invalid_country',
      `countries takes ISO 3166-1 alpha-2 codes (like US, GB, DE; EU for every member state); ` +
        `not: ${bad.map(shown).join(', ')}.`,
    );
  }
  return [...new Set(codes)];
}

/** Whether a type applies to a document from one of `countries` (none given: every type). */
function appliesTo(rule: GlobalRule, countries: readonly string[]): boolean {
  if (countries.length === 0 || rule.country === 'ANY') return true;
  return countries.includes(rule.country) || rule.countries.some((c) => countries.includes(c));
}

/** The rules to run: the named types (or the defaults), limited to the countries. */
export function resolveEntityTypes(raw: ListOption, countries: readonly string[]): GlobalRule[] {
  const asked = names(raw).map((n) => n.toUpperCase());
  const known = new Map(GLOBAL_RULES.map((r) => [r.type, r]));
  const unknown = asked.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new UnknownTypeError(
      `Unknown entity type(s): ${unknown.map(shown).join(', ')}. ` +
        `Valid types: ${[...known.keys()].join(', ')}.`,
    );
  }
  const chosen =
    asked.length === 0
      ? GLOBAL_RULES.filter((r) => r.enabledByDefault)
      : GLOBAL_RULES.filter((r) => asked.includes(r.type));
  return chosen.filter((r) => appliesTo(r, countries));
}

export function resolveMode<M extends Mode>(
  raw: string | null | undefined,
  allowed: readonly M[],
  fallback: M,
): M {
  const mode = (raw ?? '').trim().toLowerCase();
  if (mode === '') return fallback;
  const found = allowed.find((m) => m === mode);
  if (!found) {
    throw new InvalidOptionError(
      'invalid_mode',
      `mode must be one of ${allowed.join(', ')}; not ${shown(mode)}.`,
    );
  }
  return found;
}

export function resolveMaskKeep(raw: number | string | null | undefined): number {
  if (raw === undefined || raw === null || String(raw).trim() === '') return MASK_KEEP_DEFAULT;
  const text = String(raw).trim();
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > MASK_KEEP_MAX) {
    throw new InvalidOptionError(
      'invalid_mask_keep',
      `mask_keep is a whole number from 0 to ${MASK_KEEP_MAX} (default ${MASK_KEEP_DEFAULT}).`,
    );
  }
  return value;
}
