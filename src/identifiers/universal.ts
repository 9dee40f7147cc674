/**
 * Types that apply to documents from any country: their declarations (what the listings serve)
 * joined to their rules, one module per type or family under ./universal/.
 */
import type { GlobalRule } from './global-rule.js';
import type { GlobalTypeDeclaration } from './types.js';
import type { RuleBehaviour } from './universal/behaviour.js';
import { SWIFT_BIC_RULE } from './universal/bic.js';
import { CRYPTO_BTC_RULE, CRYPTO_ETH_RULE } from './universal/crypto.js';
import { DATE_OF_BIRTH_RULE } from './universal/date-of-birth.js';
import { EMAIL_RULE } from './universal/email.js';
import { IBAN_RULE } from './universal/iban.js';
import { PASSPORT_MRZ_RULE } from './universal/mrz.js';
import { IP_ADDRESS_RULE, MAC_ADDRESS_RULE } from './universal/network.js';
import { PAYMENT_CARD_RULE } from './universal/payment-card.js';
import { PHONE_RULE } from './universal/phone.js';

const any = (
  type: string,
  category: GlobalTypeDeclaration['category'],
  validation: string,
  description: string,
  behaviour: RuleBehaviour,
  enabledByDefault = true,
): GlobalRule => ({
  type,
  country: 'ANY',
  countries: [],
  category,
  validation,
  description,
  enabledByDefault,
  ...behaviour,
});

export const UNIVERSAL: readonly GlobalRule[] = [
  any(
    'PASSPORT_MRZ',
    'travel_document',
    'ICAO 9303 check digits, per field and composite',
    'Machine-readable zone of a passport, ID card or visa',
    PASSPORT_MRZ_RULE,
  ),
  any('PAYMENT_CARD', 'financial', 'Luhn', 'Payment card number', PAYMENT_CARD_RULE),
  any(
    'IBAN',
    'financial',
    'ISO 7064 mod-97 and country length',
    'International Bank Account Number',
    IBAN_RULE,
  ),
  any('EMAIL', 'contact', 'Format', 'E-mail address', EMAIL_RULE),
  any('PHONE', 'contact', 'Format', 'Telephone number', PHONE_RULE),
  any('IP_ADDRESS', 'network', 'Format', 'IPv4 or IPv6 address', IP_ADDRESS_RULE),
  any('MAC_ADDRESS', 'network', 'Format', 'Hardware (MAC) address', MAC_ADDRESS_RULE),
  any('CRYPTO_BTC', 'crypto', 'Format', 'Bitcoin address', CRYPTO_BTC_RULE),
  any('CRYPTO_ETH', 'crypto', 'Format', 'Ethereum address', CRYPTO_ETH_RULE),
  any('SWIFT_BIC', 'financial', 'Format', 'SWIFT/BIC bank identifier code', SWIFT_BIC_RULE, false),
  any('DATE_OF_BIRTH', 'personal', 'Format', 'Date of birth', DATE_OF_BIRTH_RULE, false),
];
