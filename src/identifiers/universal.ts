/** Types that apply to documents from any country. */
import type { GlobalTypeDeclaration } from './types.js';

const any = (
  type: string,
  category: GlobalTypeDeclaration['category'],
  validation: string,
  description: string,
  enabledByDefault = true,
): GlobalTypeDeclaration => ({
  type,
  country: 'ANY',
  countries: [],
  category,
  validation,
  description,
  enabledByDefault,
});

export const UNIVERSAL: readonly GlobalTypeDeclaration[] = [
  any(
    'PASSPORT_MRZ',
    'travel_document',
    'ICAO 9303 check digits, per field and composite',
    'Machine-readable zone of a passport, ID card or visa',
  ),
  any('PAYMENT_CARD', 'financial', 'Luhn', 'Payment card number'),
  any(
    'IBAN',
    'financial',
    'ISO 7064 mod-97 and country length',
    'International Bank Account Number',
  ),
  any('EMAIL', 'contact', 'Format', 'E-mail address'),
  any('PHONE', 'contact', 'Format', 'Telephone number'),
  any('IP_ADDRESS', 'network', 'Format', 'IPv4 or IPv6 address'),
  any('MAC_ADDRESS', 'network', 'Format', 'Hardware (MAC) address'),
  any('CRYPTO_BTC', 'crypto', 'Format', 'Bitcoin address'),
  any('CRYPTO_ETH', 'crypto', 'Format', 'Ethereum address'),
  any('SWIFT_BIC', 'financial', 'Format', 'SWIFT/BIC bank identifier code', false),
  any('DATE_OF_BIRTH', 'personal', 'Format', 'Date of birth', false),
];
