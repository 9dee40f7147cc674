/** United States, Canada and Brazil. */
import type { GlobalTypeDeclaration } from './types.js';

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

export const AMERICAS: readonly GlobalTypeDeclaration[] = [
  us('US_SSN', 'national_id', 'SSA structural rules', 'US Social Security Number'),
  us('US_ITIN', 'tax_id', 'Format', 'US Individual Taxpayer Identification Number'),
  us('US_EIN', 'tax_id', 'Format', 'US Employer Identification Number'),
  us('US_ABA_ROUTING', 'financial', '3-7-1 weighted checksum', 'US ABA bank routing number'),
  {
    type: 'CA_SIN',
    country: 'CA',
    countries: ['CA'],
    category: 'national_id',
    validation: 'Luhn',
    description: 'Canadian Social Insurance Number',
    enabledByDefault: true,
  },
  {
    type: 'BR_CPF',
    country: 'BR',
    countries: ['BR'],
    category: 'tax_id',
    validation: 'Double mod-11',
    description: 'Brazilian individual taxpayer number (Cadastro de Pessoas Fisicas)',
    enabledByDefault: true,
  },
];
