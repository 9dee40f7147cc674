/** Indian identifiers: the `/redact-pii` types (the IN_* global types are in global-rules.ts). */
import type { IndianTypeDeclaration } from '../types.js';

export const INDIAN_TYPES: readonly IndianTypeDeclaration[] = [
  {
    type: 'aadhaar',
    shape: 'Twelve digits, Verhoeff-validated',
    description: 'Aadhaar number issued by UIDAI',
    enabledByDefault: true,
  },
  {
    type: 'vid',
    shape: 'Sixteen-digit Virtual ID',
    description: 'Aadhaar Virtual ID, a revocable stand-in for the Aadhaar number',
    enabledByDefault: true,
  },
  {
    type: 'pan',
    shape: 'Five letters, four digits, one letter',
    description: 'Permanent Account Number issued by the Income Tax Department',
    enabledByDefault: true,
  },
  {
    type: 'passport',
    shape: 'One letter, seven digits',
    description: 'Indian passport number',
    enabledByDefault: true,
  },
  {
    type: 'voter_epic',
    shape: 'Three letters, seven digits',
    description: 'Electors Photo Identity Card (voter ID) number',
    enabledByDefault: true,
  },
  {
    type: 'driving_licence',
    shape: 'State code, RTO code, eleven digits',
    description: 'Driving licence number',
    enabledByDefault: true,
  },
  {
    type: 'gstin',
    shape: 'Fifteen characters, embeds a PAN',
    description: 'Goods and Services Tax Identification Number',
    enabledByDefault: true,
  },
  {
    type: 'ifsc',
    shape: 'Four letters, a zero, six characters',
    description: 'Indian Financial System Code of a bank branch',
    enabledByDefault: true,
  },
  {
    type: 'phone_in',
    shape: 'Indian mobile, optional country code',
    description: 'Indian mobile phone number',
    enabledByDefault: true,
  },
  {
    type: 'email',
    shape: 'Anything shaped like an address',
    description: 'E-mail address',
    enabledByDefault: true,
  },
  {
    type: 'bank_account',
    shape: 'Nine to eighteen digits, no checksum',
    description:
      'Bank account number. Off by default: it cannot be told from invoice, policy or customer ' +
      'numbers; enable it only where the document type is known (for example bank statements).',
    enabledByDefault: false,
  },
];
