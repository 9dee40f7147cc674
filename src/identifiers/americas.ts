/** United States, Canada and Brazil. */
import { cpfPseudonym, validateCpf } from './br/cpf.js';
import { sinPseudonym, validateSin } from './ca/sin.js';
import type { GlobalRule } from './global-rule.js';
import type { GlobalTypeDeclaration } from './types.js';
import { abaRoutingPseudonym, validateAbaRouting } from './us/aba-routing.js';
import { einPseudonym, validateEin } from './us/ein.js';
import { itinPseudonym, validateItin } from './us/itin.js';
import { ssnPseudonym, validateSsn } from './us/ssn.js';
import { bounded, digits } from './patterns.js';

const us = (
  type: string,
  category: GlobalTypeDeclaration['category'],
  validation: string,
  description: string,
): GlobalTypeDeclaration => ({
  type,
  country: 'US',
  countries: ['US'],
  category,
  validation,
  description,
  enabledByDefault: true,
});

/** `AAA-GG-SSSS`: hyphens, spaces or dots, the same one twice, or none. */
const SSN_SHAPE = '[0-9]{3}([-. ]?)[0-9]{2}\\1[0-9]{4}';

export const AMERICAS: readonly GlobalRule[] = [
  {
    ...us('US_SSN', 'national_id', 'SSA structural rules', 'US Social Security Number'),
    pattern: bounded(SSN_SHAPE),
    compact: digits,
    validate: validateSsn,
    labels: /\bssn\b|social\s+security|\bss\s*(?:#|no\b|number)/i,
    pseudonym: ssnPseudonym,
  },
  {
    ...us('US_ITIN', 'tax_id', 'Format', 'US Individual Taxpayer Identification Number'),
    pattern: bounded(`(?=9)${SSN_SHAPE}`),
    compact: digits,
    validate: validateItin,
    labels: /\bitin\b|individual\s+taxpayer|taxpayer\s+id/i,
    pseudonym: itinPseudonym,
  },
  {
    ...us('US_EIN', 'tax_id', 'Format', 'US Employer Identification Number'),
    // `NN-NNNNNNN` as the IRS prints it; nine bare digits only right after an EIN label, as
    // they are any other nine-digit number's shape too.
    pattern: bounded(
      '[0-9]{2}-[0-9]{7}|(?<=\\b(?:F?EIN|[Ee]mployer [Ii]dentification [Nn]umber)[ .:#]{0,3})[0-9]{9}',
    ),
    compact: digits,
    validate: validateEin,
    labels: /\bf?ein\b|employer\s+id(?:entification)?|federal\s+tax\s+id/i,
    pseudonym: einPseudonym,
  },
  {
    ...us('US_ABA_ROUTING', 'financial', '3-7-1 weighted checksum', 'US ABA bank routing number'),
    // `XXXXYYYYC` or `XXXX-YYYY-C`; the MICR ⑆ symbols around it are no letters or digits.
    pattern: bounded('[0-9]{4}(-?)[0-9]{4}\\1[0-9]'),
    compact: digits,
    validate: validateAbaRouting,
    labels: /routing|\baba\b|\brtn\b|transit\s+(?:no|number)/i,
    pseudonym: abaRoutingPseudonym,
  },
  {
    type: 'CA_SIN',
    country: 'CA',
    countries: ['CA'],
    category: 'national_id',
    validation: 'Luhn',
    description: 'Canadian Social Insurance Number',
    enabledByDefault: true,
    pattern: bounded('[0-9]{3}([ -]?)[0-9]{3}\\1[0-9]{3}'),
    compact: digits,
    validate: validateSin,
    labels: /\bsin\b|social\s+insurance|\bnas\b|assurance\s+sociale/i,
    pseudonym: sinPseudonym,
  },
  {
    type: 'BR_CPF',
    country: 'BR',
    countries: ['BR'],
    category: 'tax_id',
    validation: 'Double mod-11',
    description: 'Brazilian individual taxpayer number (Cadastro de Pessoas Fisicas)',
    enabledByDefault: true,
    // `NNN.NNN.NNN-DD`, also with spaces, a slash before the check digits, or bare.
    pattern: bounded('[0-9]{3}([. ]?)[0-9]{3}\\1[0-9]{3}[-./ ]?[0-9]{2}'),
    compact: digits,
    validate: validateCpf,
    labels: /\bcpf\b|cadastro\s+de\s+pessoas|pessoa\s+f[ií]sica/i,
    pseudonym: cpfPseudonym,
  },
];
