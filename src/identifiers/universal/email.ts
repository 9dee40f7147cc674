/**
 * EMAIL (e-mail address, the practical addr-spec of RFC 5322).
 *
 * A local part of atext and single dots (at most 64 characters), `@`, and a domain of at least
 * two letter-digit-hyphen labels ending in an alphabetic or `xn--` top-level label. The pattern,
 * compaction and syntax check are ../email.ts's, shared with the Indian finder; this module adds
 * the reserved names: RFC 2606's example.com/.net/.org and the .test, .example, .invalid and
 * .localhost top-level domains belong to nobody, are the stand-ins' space (§0 R) and are refused
 * as `reserved`, so a second pass leaves them. Source: the type's published rule.
 *
 * More information: https://www.rfc-editor.org/rfc/rfc2606
 *
 *   jane.doe@mailbox.co.uk   valid
 *   jane..doe@mailbox.co.uk  invalid: local_part
 *   jane.doe@example.com     invalid: reserved
 */
import type { Draw } from '../global-rule.js';
import { drawBelow } from '../stand-in.js';
import { compactEmail, EMAIL_PATTERN, validateEmail } from '../email.js';
import { reject, type Validation } from '../validation.js';
import { redrawClasses, type RuleBehaviour } from './behaviour.js';

const RESERVED = /(?:^|\.)example\.(?:com|net|org)$|\.(?:test|example|invalid|localhost)$/i;

function validate(value: string): Validation {
  const checked = validateEmail(value);
  if (!checked.valid) return checked;
  const domain = value.slice(value.lastIndexOf('@') + 1);
  return RESERVED.test(domain) ? reject(checked.rule, 'reserved') : checked;
}

/**
 * The local part redrawn in its own shape (letters, digits and case classes; dots, `+`, `_`
 * kept) at example.com, .net or .org (RFC 2606, R). Any space OCR left beside the `@` stays.
 */
function pseudonym(raw: string, draw: Draw): string {
  const at = raw.lastIndexOf('@');
  const local = raw.slice(0, at).replace(/ +$/, '');
  const gap = raw.slice(local.length, at + 1) + (raw[at + 1] === ' ' ? ' ' : '');
  const domain = ['com', 'net', 'org'][drawBelow(draw, 3)] ?? 'com';
  const upper = /^[^a-z]*$/.test(raw.slice(at + 1));
  const host = `example.${domain}`;
  return redrawClasses(local, draw) + gap + (upper ? host.toUpperCase() : host);
}

export const EMAIL_RULE: RuleBehaviour = {
  pattern: EMAIL_PATTERN,
  compact: compactEmail,
  validate,
  labels: /e-?mail|courriel|correo|mail\s*id/i,
  pseudonym,
};
