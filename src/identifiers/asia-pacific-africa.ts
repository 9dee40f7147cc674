/** Australia and South Africa. */
import type { GlobalTypeDeclaration } from './types.js';

export const ASIA_PACIFIC_AFRICA: readonly GlobalTypeDeclaration[] = [
  {
    type: 'AU_TFN',
    country: 'AU',
    countries: ['AU'],
    category: 'tax_id',
    validation: 'Weighted mod-11',
    description: 'Australian Tax File Number',
    enabledByDefault: true,
  },
  {
    type: 'AU_ABN',
    country: 'AU',
    countries: ['AU'],
    category: 'tax_id',
    validation: 'Weighted mod-89',
    description: 'Australian Business Number',
    enabledByDefault: true,
  },
  {
    type: 'ZA_ID',
    country: 'ZA',
    countries: ['ZA'],
    category: 'national_id',
    validation: 'Luhn and a valid birth date',
    description: 'South African identity number',
    enabledByDefault: true,
  },
];
