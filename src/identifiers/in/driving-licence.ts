/**
 * Indian driving licence numbers, national (Sarathi) format: state code, two-digit RTO code,
 * year of issue, seven-digit serial (`MH12 20110012345`, `DL-0420110149646`); 15 characters once
 * separators are removed. There is no check digit, so validation is structural: a registration
 * mark in use on licences, an RTO code 01-99, a year from 1950 to this year, a serial other than
 * 0000000. Older state formats are not recognised (their shape is not reliable).
 * Source: the Sarathi (Ministry of Road Transport) licence number format.
 *
 *   valid:   DL0420110149646, MH1220110012345, TG0920240001234
 *   invalid: XX0120150012345 (state), MH1218990012345 (year), MH0020110012345 (RTO 00)
 */
import { accept, reject, type Validation } from '../validation.js';

/** MoRTH registration marks of states and UTs, with the legacy codes still printed (OR, UA, DN). */
const STATES = new Set(
  (
    'AP AR AS BR CG GA GJ HR HP JH KA KL MP MH MN ML MZ NL OD PB RJ SK TN TR UP UK WB TS TG ' +
    'AN CH DD DL JK LA LD PY OR UA DN'
  ).split(' '),
);
/** Seen in other lists only (ISO 3166-2 or obsolete): accepted with less confidence. */
const DOUBTFUL_STATES = new Set(['CT', 'UT', 'UL']);

export const DRIVING_LICENCE_LENGTH = 15;

export function validateDrivingLicence(value: string, now = new Date()): Validation {
  const rule = 'state code, RTO code, year of issue and seven-digit serial';
  const parts = /^([A-Z]{2})([0-9]{2})([0-9]{4})([0-9]{7})$/.exec(value);
  if (!parts) return reject(rule, 'format');
  const [, state = '', rto = '', year = '', serial = ''] = parts;
  const doubtful = DOUBTFUL_STATES.has(state);
  if (!STATES.has(state) && !doubtful) return reject(rule, 'unknown_state_code');
  if (rto === '00') return reject(rule, 'rto_code');
  const issued = Number(year);
  if (issued < 1950 || issued > now.getUTCFullYear()) return reject(rule, 'year');
  if (serial === '0000000') return reject(rule, 'serial');
  return accept(rule, doubtful ? 0.6 : 0.9);
}
