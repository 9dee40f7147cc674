/** United Kingdom and the European Union. */
import { compactVat, validateVat, VAT_PATTERN_SOURCE, vatPseudonym } from './eu/vat.js';
import type { GlobalRule } from './global-rule.js';
import { nhsPseudonym, validateNhs } from './uk/nhs.js';
import { ninoPseudonym, validateNino } from './uk/nino.js';
import { alnum, bounded, digits } from './patterns.js';

/** EU member states (ISO-2) whose VAT numbers EU_VAT covers; Greece prints EL on VAT numbers. */
export const EU_MEMBER_STATES = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
  'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
] as const; // prettier-ignore

export const EUROPE: readonly GlobalRule[] = [
  {
    type: 'UK_NINO',
    country: 'GB',
    countries: ['GB'],
    category: 'national_id',
    validation: 'Format and issued prefixes',
    description: 'UK National Insurance number',
    enabledByDefault: true,
    // `AB 12 34 56 C`, `AB123456C`, hyphenated; the suffix may be left off, and a letter set
    // apart after the digits is its suffix as printed, even outside A-D (nino.ts). In lower
    // case only run together and with its suffix (`ab123456c`): "at 12 34 56" is a word and a
    // phone number, and "ee870111" the start of a UUID. Never the head of a hyphenated token
    // (`EE870111-D83B-...`).
    pattern: bounded(
      '(?:[A-Z]{2}[ -]?[0-9]{2}[ -]?[0-9]{2}[ -]?[0-9]{2}(?:[ -]?[A-D]|[ -][A-Z])?|[a-z]{2}[0-9]{6}[a-d])(?!-[A-Za-z0-9])',
    ),
    compact: alnum,
    validate: validateNino,
    labels: /\bnino\b|national\s+insurance|\bni\s*(?:no\b|number)/i,
    pseudonym: ninoPseudonym,
  },
  {
    type: 'UK_NHS',
    country: 'GB',
    countries: ['GB'],
    category: 'health',
    validation: 'mod-11',
    description: 'NHS number (England, Wales, Isle of Man)',
    enabledByDefault: true,
    // `943 476 5919` (3-3-4), hyphenated or bare.
    pattern: bounded('[0-9]{3}([ -]?)[0-9]{3}\\1[0-9]{4}'),
    compact: digits,
    validate: validateNhs,
    labels: /\bnhs\b|health\s+service|\bchi\b/i,
    pseudonym: nhsPseudonym,
  },
  {
    type: 'EU_VAT',
    country: 'EU',
    countries: EU_MEMBER_STATES,
    category: 'tax_id',
    validation: 'Format',
    description: 'EU VAT identification number, with its country prefix',
    enabledByDefault: true,
    pattern: bounded(VAT_PATTERN_SOURCE),
    compact: compactVat,
    validate: validateVat,
    labels:
      /\bvat\b|ust-?id|umsatzsteuer|\btva\b|\biva\b|\bbtw\b|\bmwst\b|\bnif\b|\bdph\b|\bddv\b|\bpdv\b|\bpvm\b|\bpvn\b|\balv\b|\bmoms\b|\bdi[cč]\b|\bcif\b|\bcui\b|\boib\b|\bkmkr\b|partita|ΦΠΑ|ΑΦΜ/i,
    pseudonym: vatPseudonym,
  },
];
