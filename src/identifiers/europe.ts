/** United Kingdom and the European Union. */
import type { GlobalTypeDeclaration } from './types.js';

/** EU member states (ISO-2) whose VAT numbers EU_VAT covers; Greece prints EL on VAT numbers. */
export const EU_MEMBER_STATES = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
  'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
] as const; // prettier-ignore

export const EUROPE: readonly GlobalTypeDeclaration[] = [
  {
    type: 'UK_NINO',
    country: 'GB',
    countries: ['GB'],
    category: 'national_id',
    validation: 'Format and issued prefixes',
    description: 'UK National Insurance number',
    enabledByDefault: true,
  },
  {
    type: 'UK_NHS',
    country: 'GB',
    countries: ['GB'],
    category: 'health',
    validation: 'mod-11',
    description: 'NHS number (England, Wales, Isle of Man)',
    enabledByDefault: true,
  },
  {
    type: 'EU_VAT',
    country: 'EU',
    countries: EU_MEMBER_STATES,
    category: 'tax_id',
    validation: 'Format',
    description: 'EU VAT identification number, with its country prefix',
    enabledByDefault: true,
  },
];
