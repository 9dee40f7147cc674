/**
 * API key material. A key is `<prefix>_live_<secret>`: the secret is 40 characters drawn
 * uniformly from [A-Za-z0-9] (about 238 bits). Keys are shown once and stored only as a
 * SHA-256 hash: with that much entropy a fast hash is safe (there is nothing to brute-force),
 * and it lets a lookup go through a unique index.
 */
import crypto from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SECRET_LENGTH = 40;
const PREFIX_PATTERN = /^[a-z][a-z0-9]{1,15}$/;
const KEY_PATTERN = /^([a-z][a-z0-9]{1,15})_live_([A-Za-z0-9]{32,128})$/;

export const DEFAULT_KEY_PREFIX = 'pk';

export class KeyFormatError extends Error {
  override name = 'KeyFormatError';
}

export function assertValidPrefix(prefix: string): void {
  if (!PREFIX_PATTERN.test(prefix)) {
    throw new KeyFormatError(
      'a key prefix is 2 to 16 lower-case letters and digits, starting with a letter',
    );
  }
}

function randomString(length: number, alphabet: string): string {
  // Rejection sampling keeps every character equally likely (no modulo bias).
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      if (byte < limit && out.length < length) out += alphabet.charAt(byte % alphabet.length);
    }
  }
  return out;
}

export function generateKey(prefix: string = DEFAULT_KEY_PREFIX): string {
  assertValidPrefix(prefix);
  return `${prefix}_live_${randomString(SECRET_LENGTH, ALPHABET)}`;
}

/** A short public id for a key, safe to print and log (it reveals nothing of the secret). */
export function generateKeyId(): string {
  return `key_${randomString(12, ALPHABET.slice(26))}`;
}

export function hashKey(key: string): string {
  return crypto.createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex hashes of equal length. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/** Whether a string has the shape of a key; anything else cannot be one of ours. */
export function looksLikeKey(candidate: string): boolean {
  return KEY_PATTERN.test(candidate);
}

export function keyPrefixOf(key: string): string {
  const match = KEY_PATTERN.exec(key);
  if (!match?.[1]) throw new KeyFormatError('not an API key');
  return match[1];
}
