/** Option parsers for the CLI: each refuses a bad value with a message that names it. */
import { InvalidArgumentError } from 'commander';
import { parseDay } from '../accounts/calendar.js';

export function wholeNumber(min: number) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw) || Number(raw) < min) {
      throw new InvalidArgumentError(`expected a whole number of at least ${min}`);
    }
    return Number(raw);
  };
}

/** `YYYY-MM-DD`, or `none` for no expiry (kept as the word: commander turns null into ''). */
export function dayOrNone(raw: string): string {
  if (raw === 'none') return raw;
  const day = parseDay(raw);
  if (day === null) throw new InvalidArgumentError('expected a date YYYY-MM-DD or "none"');
  return day;
}

/** The store's value for a parsed `--paid-until`: null for `none`. */
export function paidUntilValue(parsed: string): string | null {
  return parsed === 'none' ? null : parsed;
}

export function month(raw: string): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(raw)) throw new InvalidArgumentError('expected YYYY-MM');
  return raw;
}

/**
 * One of `allowed`, exactly as written. A plain Error, not commander's InvalidArgumentError: the
 * command line prints it as `parda: expected one of ...`.
 */
export function oneOf<T extends string>(allowed: readonly T[]) {
  return (raw: string): T => {
    const value = allowed.find((candidate) => candidate === raw);
    if (value === undefined) throw new Error(`expected one of ${allowed.join(', ')}`);
    return value;
  };
}

/**
 * A mistake in a command's arguments that parda finds itself (several inputs without `-o`, a
 * path that does not exist, a bad `--jobs`): main.ts prints it and exits with USAGE_EXIT, so
 * that a script can tell "you called it wrong" from "a file failed" (1).
 */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const USAGE_EXIT = 2;

/** `--jobs N`: a whole number of at least 1; refused as a usage error. */
export function jobCount(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new UsageError('--jobs expects a whole number of at least 1');
  }
  return Number(raw);
}
