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
