/** Reads optional text parts of a multipart form against the values the interface allows. */
import { ApiError } from './errors.js';

export function choice<T extends string>(
  fields: ReadonlyMap<string, string>,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = fields.get(name)?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = raw.toLowerCase();
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ApiError('invalid_request', `${name} must be one of ${allowed.join(', ')}.`);
  }
  return value as T;
}

/** A boolean part: `true`/`false` (also `1`/`0`, `yes`/`no`, any case); absent or empty is `fallback`. */
export function flag(
  fields: ReadonlyMap<string, string>,
  name: string,
  fallback: boolean,
): boolean {
  const raw = fields.get(name)?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ApiError('invalid_request', `${name} must be true or false.`);
}
