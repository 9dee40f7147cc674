/**
 * E-mail addresses, as people write them (the practical addr-spec of the type's published rule):
 * a local part of atext and single dots (at most 64 characters), `@`, a domain of at least two
 * letter-digit-hyphen labels (each at most 63, the whole at most 253) ending in an alphabetic or
 * `xn--` top-level label. The pattern is linear (no nested quantifiers), so long text cannot make
 * it backtrack (presidio#2095). UPI IDs (`name@okaxis`) have no dot in the domain and are no
 * addresses. OCR sometimes reads a space beside the `@` ("name@ example.in"): one space on
 * either side is taken as part of the address, and dropped by `compactEmail`.
 */
import { accept, reject, type Validation } from './validation.js';

export const EMAIL_PATTERN =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*(?: ?@ ?)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?![A-Za-z0-9-])/g;

export const compactEmail = (raw: string): string => raw.replace(/ /g, '');

export function validateEmail(value: string): Validation {
  const rule = 'address syntax: local part, @, a dotted domain with a real top-level label';
  const at = value.lastIndexOf('@');
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (at < 1 || local.length > 64 || domain.length > 253) return reject(rule, 'length');
  if (/^\.|\.\.|\.$/.test(local)) return reject(rule, 'local_part');
  const labels = domain.split('.');
  if (labels.length < 2) return reject(rule, 'domain');
  if (labels.some((l) => l.length === 0 || l.length > 63 || /^-|-$/.test(l))) {
    return reject(rule, 'domain');
  }
  const top = labels.at(-1) ?? '';
  if (!/^[A-Za-z]{2,63}$/.test(top) && !/^xn--[A-Za-z0-9-]+$/i.test(top)) {
    return reject(rule, 'top_level_label');
  }
  return accept(rule, 0.95);
}
