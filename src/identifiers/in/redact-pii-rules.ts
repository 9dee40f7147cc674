/**
 * The Indian redaction types (README, `types` of /redact-pii) as rules the finder runs:
 * where candidates are in raw text (separators as people print them), how a candidate is
 * compacted, how it is validated, and which labels speak for or against it. The declarations
 * the listings serve (shape, description, default) are in redact-pii-types.ts; this adds the
 * behaviour, type by type, from each number's published format (README: Indian identifiers).
 */
import { AADHAAR_IN_TEXT, isValidVid, vidChecksumValid } from './aadhaar.js';
import { validateDrivingLicence } from './driving-licence.js';
import { compactEmail, EMAIL_PATTERN, validateEmail } from '../email.js';
import { validateGstin } from './gstin.js';
import {
  validateBankAccount,
  validateIfsc,
  validatePassportIn,
  validateLabelledPhoneIn,
  validatePhoneIn,
  validateVoterEpic,
} from './numbers.js';
import { PAN_IN_TEXT } from './pan.js';
import type { TextRule } from '../rule.js';
import { accept, reject } from '../validation.js';
import { alnum, digits } from '../patterns.js';

export const INDIAN_TYPE_NAMES = [
  'aadhaar',
  'vid',
  'pan',
  'passport',
  'voter_epic',
  'driving_licence',
  'gstin',
  'ifsc',
  'phone_in',
  'email',
  'bank_account',
] as const;
export type IndianType = (typeof INDIAN_TYPE_NAMES)[number];

/** A /redact-pii type: the finder's rule shape, always with a pattern and labels. */
export interface IndianRule extends TextRule {
  readonly type: IndianType;
  readonly pattern: RegExp;
  readonly labels: RegExp;
}

/** Not part of a longer run of letters and digits (nor, for digit groups, of more groups). */
const B = '(?<![A-Za-z0-9])';
const E = '(?![A-Za-z0-9])';
const DIGIT_B = '(?<![A-Za-z0-9]|[0-9][ -])';
const DIGIT_E = '(?![A-Za-z0-9]|[ -][0-9])';

export const INDIAN_RULES: readonly IndianRule[] = [
  // The same entries as the global IN_AADHAAR and IN_PAN (aadhaar.ts, pan.ts).
  { type: 'aadhaar', ...AADHAAR_IN_TEXT },
  {
    type: 'vid',
    pattern: new RegExp(`${DIGIT_B}[0-9]{4}([ -]?)[0-9]{4}\\1[0-9]{4}\\1[0-9]{4}${DIGIT_E}`, 'g'),
    compact: digits,
    // The checksum decides; stdnum's extra first-digit and palindrome rules only lower confidence.
    validate: (value) =>
      !vidChecksumValid(value)
        ? reject('16 digits, Verhoeff check digit', 'checksum')
        : accept('16 digits, Verhoeff check digit', isValidVid(value) ? 0.9 : 0.6),
    labels: /\bvid\b|virtual\s*id|वीआईडी/i,
  },
  { type: 'pan', ...PAN_IN_TEXT, shape: 'LLLLLDDDDL' },
  {
    type: 'passport',
    pattern: new RegExp(`${B}[A-Z]-?[0-9]{7}${E}`, 'g'),
    compact: alnum,
    validate: validatePassportIn,
    labels: /passport|पासपोर्ट/i,
    shape: 'LDDDDDDD',
  },
  {
    type: 'voter_epic',
    pattern: new RegExp(`${B}[A-Z]{3}[0-9]{7}${E}`, 'g'),
    compact: alnum,
    validate: validateVoterEpic,
    labels: /\bepic\b|voter|elector|election\s*commission|मतदाता|निर्वाचक/i,
    shape: 'LLLDDDDDDD',
  },
  {
    type: 'driving_licence',
    pattern: new RegExp(`${B}[A-Z]{2}[ -]?[0-9]{2}[ -]?(?:19|20)[0-9]{2}[ -]?[0-9]{7}${E}`, 'g'),
    compact: alnum,
    validate: (v) => validateDrivingLicence(v),
    labels: /\bd\.?\s?l\b|driving|licen[cs]e|\brto\b|ड्राइविंग|लाइसेंस/i,
    shape: 'LLDDDDDDDDDDDDD',
  },
  {
    type: 'gstin',
    pattern: new RegExp(`${B}[0-9]{2}[A-Z0-9]{13}${E}`, 'g'),
    compact: alnum,
    validate: validateGstin,
    labels: /gstin|\bgst\b|\buin\b|goods\s*and\s*services|जीएसटी/i,
    shape: 'DDLLLLLDDDDL.Z.',
  },
  {
    type: 'ifsc',
    pattern: new RegExp(`${B}[A-Z]{4}0[A-Z0-9]{6}${E}`, 'g'),
    compact: alnum,
    validate: validateIfsc,
    labels: /\bifsc?\b|ifs\s*code|neft|rtgs|आईएफएससी/i,
    shape: 'LLLL0......',
  },
  {
    type: 'phone_in',
    pattern: new RegExp(
      `(?<![A-Za-z0-9+]|[0-9][ -])(?:\\(?(?:\\+|00)91\\)?[ -]?|91[ -]?|0)?` +
        `[6-9](?:[0-9]{4}[ -]?[0-9]{5}|[0-9]{2}[ -]?[0-9]{3}[ -]?[0-9]{4})${DIGIT_E}`,
      'g',
    ),
    compact: digits,
    validate: validatePhoneIn,
    withLabel: {
      // +91 / 0091 / 91 / trunk 0, an STD code of two to four digits, the subscriber number.
      pattern: new RegExp(
        `(?<![A-Za-z0-9+]|[0-9][ -])(?:\\(?(?:\\+|00)91\\)?[ -]?|91[ -]?)?\\(?0?[1-9][0-9]{1,4}\\)?` +
          `[ -]?[0-9]{2,4}[ -]?[0-9]{3,5}${DIGIT_E}`,
        'g',
      ),
      validate: validateLabelledPhoneIn,
    },
    labels:
      /mob(?:ile)?\b|\bph(?:one)?\b|\btel\b|telephone|contact|\bcell\b|whatsapp|मोबाइल|फ़?ोन|संपर्क/i,
  },
  {
    type: 'email',
    pattern: EMAIL_PATTERN,
    compact: compactEmail,
    validate: validateEmail,
    labels: /e-?mail|mail\s*id|ईमेल/i,
    unmistakable: true,
  },
  {
    type: 'bank_account',
    pattern: new RegExp(`${B}[0-9]{9,18}${E}`, 'g'),
    compact: digits,
    validate: validateBankAccount,
    labels: /\ba\/?c\b|acc(?:oun)?t\.?\s*(?:no|number)|bank\s*account|खाता/i,
    // A statement's running text: "NEFT transfer to 50100234567891", "credited to account ...".
    phrases:
      /\baccount\b|beneficiary|transfer(?:red)?\s+(?:to|from)|credit(?:ed)?\s+to|debit(?:ed)?\s+from|deposit(?:ed)?\s+(?:in)?to|paid\s+(?:in)?to/i,
    needsLabel: true,
    // A statement prints the branch's IFSC beside the account it belongs to.
    companion: /(?<![A-Za-z0-9])[A-Z]{4}0[A-Z0-9]{6}(?![A-Za-z0-9])/,
  },
];

/**
 * Labels after which a value of a shape-only type is something else: an invoice, order or
 * reference number, a roll or ticket number, an ISBN. They lower confidence; they never make a
 * value valid or invalid.
 */
export const NOT_PERSONAL_LABELS =
  /invoice|\binv\b|order|\bref(?:erence)?\b|receipt|\bbill\b|\btxn\b|transaction|ticket|\bpnr\b|roll|\bsku\b|isbn|policy|folio|challan|\bawb\b|tracking/i;

export function indianRule(type: IndianType): IndianRule {
  const rule = INDIAN_RULES.find((r) => r.type === type);
  if (!rule) throw new Error(`no rule for ${type}`);
  return rule;
}
