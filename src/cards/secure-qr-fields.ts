/**
 * Reads the values of a Secure QR's text fields (UIDAI's QR specification): typed dates, the
 * reference id's last four digits and timestamp, gender, the V2+ extras. Values that do not
 * parse become null rather than errors: they are signed data, and whether they match the
 * printed card is the caller's comparison to make.
 */
import { SecureQrError } from './secure-qr-error.js';
import type { SecureQrLayout, SecureQrVersion } from './secure-qr-layout.js';

export interface SecureQrFields {
  /** 0 none, 1 e-mail, 2 mobile, 3 both (section 3.1 reading of UIDAI's document). */
  readonly emailMobileIndicator: 0 | 1 | 2 | 3;
  /** Last four digits of the Aadhaar number, then the generation time `YYYYMMDDHHMMSSmmm`. */
  readonly referenceId: string;
  readonly last4: string;
  /** When the QR was generated, ISO 8601 in IST (`+05:30`); null if not a valid time. */
  readonly generatedAt: string | null;
  readonly name: string;
  /** `YYYY-MM-DD` when the QR holds a full date. */
  readonly dateOfBirth: string | null;
  /** Set only when the QR holds a bare year instead of a date. */
  readonly yearOfBirth: number | null;
  readonly gender: 'M' | 'F' | 'T' | null;
  readonly careOf: string;
  readonly district: string;
  readonly landmark: string;
  readonly house: string;
  readonly location: string;
  readonly pincode: string;
  readonly postOffice: string;
  readonly state: string;
  readonly street: string;
  readonly subDistrict: string;
  readonly vtc: string;
  /** V2+: last four digits of the registered mobile, when one is registered. */
  readonly mobileLast4: string | null;
  /** V5: whether the holder is a foreign national (an Aadhaar validity date is present). */
  readonly foreignNational: boolean | null;
  /** V5 foreign nationals: the date (`YYYY-MM-DD`) until which the Aadhaar is valid. */
  readonly validUntil: string | null;
  /** V3+: the masked e-mail some decoders read from the 32 bytes before the signature. */
  readonly maskedEmail: string | null;
  /** V2+ extra fields whose meaning is unknown: a sign of a layout we have not seen. */
  readonly unrecognisedFields: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** UIDAI says ISO-8859-1; UTF-8 is tried first because it is unambiguous when it decodes. */
function text(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

function validDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isoDate(year: string, month: string, day: string): string | null {
  return validDay(Number(year), Number(month), Number(day)) ? `${year}-${month}-${day}` : null;
}

/** `DD-MM-YYYY` in every sample; `DD/MM/YYYY` and `YYYY-MM-DD` as other decoders accept. */
function parseDate(value: string): string | null {
  const dmy = /^(\d{2})[-/](\d{2})[-/](\d{4})$/.exec(value);
  if (dmy) return isoDate(dmy[3] ?? '', dmy[2] ?? '', dmy[1] ?? '');
  const ymd = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return ymd ? isoDate(ymd[1] ?? '', ymd[2] ?? '', ymd[3] ?? '') : null;
}

/**
 * The doc's samples always hold a full date, even for holders whose card prints only a year
 * (UIDAI seems to write 01-01-YYYY there); a bare year is accepted in case a QR holds one.
 */
function parseBirth(value: string): Pick<SecureQrFields, 'dateOfBirth' | 'yearOfBirth'> {
  const year = /^\d{4}$/.test(value) ? Number(value) : null;
  return { dateOfBirth: year === null ? parseDate(value) : null, yearOfBirth: year };
}

/** `YYYYMMDDHHMMSSmmm` in IST (the data contradicts the `DDMMYYYY` of secondary docs). */
function parseTimestamp(stamp: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{3})$/.exec(stamp);
  if (!m) return null;
  const [, year = '', month = '', day = '', hour = '', minute = '', second = '', ms = ''] = m;
  if (!validDay(Number(year), Number(month), Number(day))) return null;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  return `${year}-${month}-${day}T${hour}:${minute}:${second}.${ms}+05:30`;
}

function parseIndicator(value: string): 0 | 1 | 2 | 3 {
  if (!/^[0-3]$/.test(value)) {
    throw new SecureQrError('malformed', 'QR payload has an invalid e-mail/mobile indicator');
  }
  return Number(value) as 0 | 1 | 2 | 3;
}

function parseGender(value: string): 'M' | 'F' | 'T' | null {
  return value === 'M' || value === 'F' || value === 'T' ? value : null;
}

/** Four digits, or a masked number ending in four digits (`xxxxxx1234`). */
const MOBILE = /^[xX*]*(\d{4})$/;

/**
 * Classifies V2+ extras by content (UIDAI's QR specification): the mobile field comes last, a
 * date is a foreign national's validity date, and the field just before that date is the
 * foreigner flag. Empty extras are empty mobile fields.
 */
function parseExtras(
  version: SecureQrVersion,
  extras: readonly string[],
): Pick<SecureQrFields, 'mobileLast4' | 'foreignNational' | 'validUntil' | 'unrecognisedFields'> {
  if (version === 'V1') {
    return { mobileLast4: null, foreignNational: null, validUntil: null, unrecognisedFields: 0 };
  }
  const last = extras.length - 1;
  const mobileLast4 = MOBILE.exec(extras[last] ?? '')?.[1] ?? null;
  const dateAt = extras.findIndex((value, i) => i !== last && parseDate(value) !== null);
  const validUntil = dateAt < 0 ? null : parseDate(extras[dateAt] ?? '');
  const known = (value: string, i: number) =>
    value === '' || i === dateAt || i === dateAt - 1 || (i === last && mobileLast4 !== null);
  return {
    mobileLast4,
    foreignNational: version === 'V5' ? validUntil !== null : null,
    validUntil,
    unrecognisedFields: extras.filter((value, i) => !known(value, i)).length,
  };
}

/**
 * V3+ (reported by one scanner only): the 32 bytes before the signature may be a masked e-mail
 * in plain text, padded in front. Taken only when its printable end looks like an address, so
 * that a hash is never mistaken for text.
 */
function parseMaskedEmail(version: SecureQrVersion, tail: Buffer): string | null {
  if (version === 'V1' || version === 'V2' || tail.length !== 32) return null;
  let start = tail.length;
  while (start > 0 && (tail[start - 1] ?? 0) > 0x20 && (tail[start - 1] ?? 0) < 0x7f) start -= 1;
  const candidate = tail.toString('latin1', start);
  return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(candidate) ? candidate : null;
}

export function parseSecureQrFields(layout: SecureQrLayout): SecureQrFields {
  const values = layout.fields.map(text);
  const [indicator = '', referenceId = '', name = '', dob = '', gender = ''] = values;
  const [careOf = '', district = '', landmark = '', house = '', location = ''] = values.slice(5);
  const [pincode = '', postOffice = '', state = '', street = '', subDistrict = ''] =
    values.slice(10);
  const vtc = values[15] ?? '';
  // The last four digits are what a card is cross-checked by: without them, fail closed.
  if (!/^\d{4}/.test(referenceId)) {
    throw new SecureQrError('malformed', 'QR reference id does not start with four digits');
  }
  return {
    emailMobileIndicator: parseIndicator(indicator),
    referenceId,
    last4: referenceId.slice(0, 4),
    generatedAt: parseTimestamp(referenceId.slice(4)),
    name,
    ...parseBirth(dob),
    gender: parseGender(gender),
    careOf,
    district,
    landmark,
    house,
    location,
    pincode,
    postOffice,
    state,
    street,
    subDistrict,
    vtc,
    ...parseExtras(layout.version, layout.extras.map(text)),
    maskedEmail: parseMaskedEmail(layout.version, layout.tail),
  };
}
