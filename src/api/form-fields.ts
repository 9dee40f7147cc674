/**
 * Reads optional text parts of a multipart form against the values the interface allows, by the
 * same rules the endpoint descriptors use (services/endpoints): a value outside its set is 422
 * `invalid_request`.
 */
import { readChoice, readFlag } from '../services/endpoints/file-endpoint.js';

export function choice<T extends string>(
  fields: ReadonlyMap<string, string>,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  return readChoice(fields, name, { type: 'string', enum: allowed, default: fallback });
}

/** A boolean part: `true`/`false` (also `1`/`0`, `yes`/`no`, any case); absent or empty is `fallback`. */
export function flag(
  fields: ReadonlyMap<string, string>,
  name: string,
  fallback: boolean,
): boolean {
  return readFlag(fields, name, { type: 'boolean', default: fallback });
}
