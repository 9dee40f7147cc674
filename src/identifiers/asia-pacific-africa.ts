/** Australia and South Africa. */
import { abnPseudonym, validateAbn } from './au/abn.js';
import { tfnPseudonym, validateTfn } from './au/tfn.js';
import type { GlobalRule } from './global-rule.js';
import { validateZaId, zaIdPseudonym } from './za/id.js';
import { bounded, digits } from './patterns.js';

export const ASIA_PACIFIC_AFRICA: readonly GlobalRule[] = [
  {
    type: 'AU_TFN',
    country: 'AU',
    countries: ['AU'],
    category: 'tax_id',
    validation: 'Weighted mod-11',
    description: 'Australian Tax File Number',
    enabledByDefault: true,
    // `NNN NNN NNN`; an old eight-digit TFN only right after a TFN label, as eight bare digits
    // are also dates (20240131) and every other reference number.
    pattern: bounded(
      '[0-9]{3}([ -]?)[0-9]{3}\\1[0-9]{3}' +
        '|(?<=\\b(?:TFN|[Tt]ax [Ff]ile [Nn]umber)[ .:#]{0,3})[0-9]{3}([ -]?)[0-9]{3}\\2[0-9]{2}',
    ),
    compact: digits,
    validate: validateTfn,
    labels: /\btfn\b|tax\s+file/i,
    pseudonym: tfnPseudonym,
  },
  {
    type: 'AU_ABN',
    country: 'AU',
    countries: ['AU'],
    category: 'tax_id',
    validation: 'Weighted mod-89',
    description: 'Australian Business Number',
    enabledByDefault: true,
    // `NN NNN NNN NNN` or bare.
    pattern: bounded('[0-9]{2}( ?)[0-9]{3}\\1[0-9]{3}\\1[0-9]{3}'),
    compact: digits,
    validate: validateAbn,
    labels: /\babn\b|australian\s+business/i,
    pseudonym: abnPseudonym,
  },
  {
    type: 'ZA_ID',
    country: 'ZA',
    countries: ['ZA'],
    category: 'national_id',
    validation: 'Luhn and a valid birth date',
    description: 'South African identity number',
    enabledByDefault: true,
    // `YYMMDD SSSS C A Z` grouped as people do (`800101 5009 08 7`, `8001015009087`).
    pattern: bounded('[0-9]{6} ?[0-9]{4} ?[0-9] ?[0-9] ?[0-9]'),
    compact: digits,
    validate: validateZaId,
    labels: /\bid\s*(?:no\b|number)|identity\s+(?:no\b|number|document)|\b(?:r?sa)\s*id\b/i,
    pseudonym: zaIdPseudonym,
  },
];
