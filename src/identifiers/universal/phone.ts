/**
 * PHONE (telephone number, ITU-T E.164).
 *
 * A country calling code and a national number, at most 15 digits together; written
 * internationally (`+44 20 7946 0123`, `0044 ...`) or nationally with the country's trunk
 * prefix and grouping (`020 7946 0123`, `(212) 555-0142`). Which national numbers exist is only
 * known from the numbering plans, so finding is Google libphonenumber's (libphonenumber-js, the
 * full metadata): its text finder takes only numbers valid for their region.
 *
 * Decision: the regions are the request's `countries` hints (ISO codes: GB, not UK, cf.
 * presidio#2173). With no hint only numbers written internationally (+CC ...) are found: a
 * national-format run of digits could be any country's and is more often an order or account
 * number. The validator sees the compacted value alone: an international number is checked
 * again against the metadata, a national one (found valid for a hinted region) by its length.
 *
 * The fiction ranges are the stand-ins' space (§0 R) and are refused as `reserved`, so a
 * second pass leaves them: NANP NXX 555-0100...0199; UK Ofcom drama numbers (07700 900xxx,
 * <city> 496 0xxx, 020 7946 0xxx, 01632 960xxx, 08081 570xxx, 0909 879 0xxx, 03069 990xxx);
 * Australia's ACMA fictitious numbers (0x 5550 xxxx, 0x 7010 xxxx, 0491 570 156-159/110,
 * 1800 160 401, 1800 975 707, 1900 654 321). Other regions have no published fiction range:
 * their stand-in keeps the country code and length with digits libphonenumber calls invalid
 * (best effort). Source: the type's published rule.
 *
 * More information: https://www.itu.int/rec/T-REC-E.164, https://github.com/google/libphonenumber
 *
 *   +91 98765 43210, +1 415 867 5309   valid (international form, no hint needed)
 *   +1 212 555 0142                    invalid: reserved (NANP fiction range)
 *   +44 20 7946 012                    no candidate (not a valid GB number)
 */
import {
  findPhoneNumbersInText,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/max';
import type { Draw } from '../global-rule.js';
import type { FindHints, Span } from '../rule.js';
import { drawBelow, drawDigits, reshape } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';
import type { RuleBehaviour } from './behaviour.js';

const EXTENSION = /\s*(?:ext\.?|extension|x|#)\s*[0-9]+$/i;

/**
 * Where the printed number ends: after the digit that completes its national number. The finder
 * sometimes reaches past it (`+1 212 555 0142, 020` read as one number with an extension).
 */
function numberLength(raw: string, national: string): number {
  let digits = '';
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i] ?? '';
    if (c < '0' || c > '9') continue;
    digits += c;
    if (digits.endsWith(national)) return i + 1;
  }
  return raw.length;
}

/**
 * A payment card's printed grouping (4-4-4-4, 4-6-5, 4-6-4): no numbering plan prints phone
 * numbers so, but German numbers of variable length can read as one, and a card's stand-in
 * (Luhn-invalid) would then be taken for a phone.
 */
const CARD_LAYOUT = /^[0-9]{4}([ -])(?:[0-9]{6}\1[0-9]{4,5}|[0-9]{4}\1[0-9]{4}\1[0-9]{4})$/;

/** A dotted quad is an IPv4 address (the IP rule's), whatever a numbering plan allows. */
const IPV4_LAYOUT = /^[0-9]{1,3}(?:\.[0-9]{1,3}){3}$/;

/** The start of an IBAN in groups right before: the digits are its BBAN, not a phone. */
const IBAN_BEFORE = /(?<![A-Za-z0-9])[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4})+ $/;

/** A line that may hold an international number: `+` or `00` before a digit. */
const INTERNATIONAL_HINT = /(?:\+|00)[\s(]*[0-9]/;
/** A line that may hold a national number: six digits with little between them. */
const DIGITS_HINT = /[0-9](?:[^0-9\n]{0,3}[0-9]){5}/;

/**
 * The numbers the finder takes in `text`, line by line: a number never runs over a line break,
 * and most lines hold no candidate, so only the lines that may hold one are given to
 * libphonenumber's finder (measured: it was two thirds of the time of all 25 types on running
 * text when given the whole text).
 */
function* find(text: string, hints: FindHints): Iterable<Span> {
  const regions = hints.countries
    .map((c) => c.toUpperCase())
    .filter((c): c is CountryCode => isSupportedCountry(c));
  const runs = regions.length > 0 ? regions.map((r) => ({ defaultCountry: r })) : [{}];
  const hint = regions.length > 0 ? DIGITS_HINT : INTERNATIONAL_HINT;
  const seen = new Set<string>();
  let offset = 0;
  for (const line of text.split('\n')) {
    if (hint.test(line)) {
      for (const options of runs) {
        for (const span of findInLine(line, options)) {
          const key = `${offset + span.start}:${offset + span.end}`;
          if (seen.has(key)) continue;
          seen.add(key);
          yield { start: offset + span.start, end: offset + span.end };
        }
      }
    }
    offset += line.length + 1;
  }
}

function* findInLine(text: string, options: { defaultCountry?: CountryCode }): Iterable<Span> {
  // When a number is cut short, the finder has swallowed what follows: look again after it.
  let from = 0;
  for (let again = true; again;) {
    again = false;
    for (const found of findPhoneNumbersInText(text.slice(from), options)) {
      const start = from + found.startsAt;
      const printed = text.slice(start, from + found.endsAt);
      const end = start + numberLength(printed, found.number.nationalNumber);
      // Part of a longer token (a GUID, a reference) or of a longer run of digit groups.
      const glued =
        /[0-9A-Za-z]$|[0-9][ .-]$/.test(text.slice(Math.max(0, start - 2), start)) ||
        /^[0-9A-Za-z]|^[ .-][0-9]/.test(text.slice(end, end + 2));
      const before = text.slice(Math.max(0, start - 40), start);
      const number = text.slice(start, end);
      const inside =
        CARD_LAYOUT.test(number) || IPV4_LAYOUT.test(number) || IBAN_BEFORE.test(before);
      if (!glued && !inside) yield { start, end };
      if (end < from + found.endsAt) {
        from = end;
        again = true;
        break;
      }
    }
  }
}

/** `+` and digits (an `00` international prefix read as `+`); an extension is dropped. */
function compact(raw: string): string {
  const digits = raw.replace(EXTENSION, '').replace(/[^0-9+]/g, '');
  if (digits.startsWith('+')) return '+' + digits.slice(1).replace(/\+/g, '');
  return digits.startsWith('00') ? '+' + digits.slice(2) : digits.replace(/\+/g, '');
}

const UK_CITIES = [
  '113',
  '114',
  '115',
  '116',
  '117',
  '118',
  '121',
  '131',
  '141',
  '151',
  '161',
  '191',
];
const AU_NUMBERS = ['1800160401', '1800975707', '1900654321'];
const AU_MOBILES = ['491570156', '491570157', '491570158', '491570159', '491570110'];

/** Whether a national significant number of the calling code lies in a fiction range. */
function reservedNumber(callingCode: string, national: string): boolean {
  switch (callingCode) {
    case '1':
      return /^[2-9][0-9]{2}55501[0-9]{2}$/.test(national);
    case '44':
      return (
        /^7700900[0-9]{3}$|^2079460[0-9]{3}$|^1632960[0-9]{3}$/.test(national) ||
        /^8081570[0-9]{3}$|^9098790[0-9]{3}$|^3069990[0-9]{3}$/.test(national) ||
        (UK_CITIES.includes(national.slice(0, 3)) && /^4960[0-9]{3}$/.test(national.slice(3)))
      );
    case '61':
      return (
        /^[2378](?:5550|7010)[0-9]{4}$/.test(national) ||
        AU_MOBILES.includes(national) ||
        AU_NUMBERS.includes(national)
      );
    default:
      return false;
  }
}

/** The readings of a national-format number by its shape (its region is not known here). */
function nationalReadings(digits: string): [string, string][] {
  const readings: [string, string][] = [];
  if (/^0[0-9]{10}$/.test(digits)) readings.push(['44', digits.slice(1)]);
  if (/^0[0-9]{9}$/.test(digits)) readings.push(['61', digits.slice(1)]);
  if (/^1[0-9]{9}$/.test(digits)) readings.push(['61', digits]); // 1800 / 1900
  if (/^[2-9][0-9]{9}$/.test(digits)) readings.push(['1', digits]);
  if (/^1[2-9][0-9]{9}$/.test(digits)) readings.push(['1', digits.slice(1)]);
  return readings;
}

function validate(value: string): Validation {
  if (value.startsWith('+')) {
    const rule = 'E.164, valid for its region by libphonenumber metadata';
    const digits = value.slice(1);
    if (digits.length > 15 || digits.length < 7) return reject(rule, 'length');
    const parsed = parsePhoneNumberFromString(value);
    if (!parsed?.isValid()) return reject(rule, 'format');
    if (reservedNumber(parsed.countryCallingCode, parsed.nationalNumber)) {
      return reject(rule, 'reserved');
    }
    return accept(rule, 0.9);
  }
  const rule = 'national format, valid for a hinted region by libphonenumber metadata';
  if (!/^[0-9]{6,15}$/.test(value)) return reject(rule, 'length');
  if (nationalReadings(value).some(([cc, n]) => reservedNumber(cc, n))) {
    return reject(rule, 'reserved');
  }
  return accept(rule, 0.7);
}

/** A national number of a fiction range for the calling code and original, if there is one. */
function fiction(callingCode: string, national: string, draw: Draw): string | undefined {
  const tail = (n: number) => drawDigits(draw, n);
  if (callingCode === '1' && national.length === 10) {
    return national.slice(0, 3) + '55501' + tail(2);
  }
  if (callingCode === '44') {
    if (national.startsWith('7')) return '7700900' + tail(3);
    if (national.startsWith('20')) return '2079460' + tail(3);
    if (national.startsWith('80')) return '8081570' + tail(3);
    if (national.startsWith('9')) return '9098790' + tail(3);
    if (national.startsWith('3')) return '3069990' + tail(3);
    const city = national.slice(0, 3);
    return (UK_CITIES.includes(city) ? city + '4960' : '1632960') + tail(3);
  }
  if (callingCode === '61') {
    if (national.startsWith('4')) return AU_MOBILES[drawBelow(draw, AU_MOBILES.length)];
    if (national.startsWith('1')) return AU_NUMBERS[drawBelow(draw, AU_NUMBERS.length)];
    const area = /^[2378]/.test(national) ? national.slice(0, 1) : '2';
    return area + (drawBelow(draw, 2) === 0 ? '5550' : '7010') + tail(4);
  }
  return undefined;
}

/**
 * Best effort where no fiction range is published: the same length, digits drawn until
 * libphonenumber calls the number invalid for the calling code's region. The leading digit
 * runs from 0 up (few plans start a national number with 0 or 1), the rest is drawn.
 */
function unassigned(callingCode: string, national: string, draw: Draw): string {
  let out = national;
  for (let attempt = 0; attempt < 40; attempt += 1) {
    out = String(Math.floor(attempt / 4) % 10) + drawDigits(draw, national.length - 1);
    if (!parsePhoneNumberFromString(`+${callingCode}${out}`)?.isValid()) break;
  }
  return out;
}

/**
 * A number of the same region from its fiction range (same area code where the range has one),
 * in the original's layout (`+44`, `0044` or `0`, spaces, brackets, hyphens); an extension's
 * digits are redrawn.
 */
function pseudonym(raw: string, draw: Draw): string {
  const extension = EXTENSION.exec(raw)?.[0] ?? '';
  const main = raw.slice(0, raw.length - extension.length);
  const digits = main.replace(/[^0-9]/g, '');
  const value = compact(main);
  let callingCode: string;
  let national: string;
  if (value.startsWith('+')) {
    const parsed = parsePhoneNumberFromString(value);
    callingCode = parsed?.countryCallingCode ?? value.slice(1, 3);
    national = parsed?.nationalNumber ?? digits.slice(callingCode.length);
  } else {
    [callingCode, national] = nationalReadings(value)[0] ?? ['', value.replace(/^0/, '')];
  }
  const fresh =
    fiction(callingCode, national, draw) ??
    (callingCode ? unassigned(callingCode, national, draw) : drawDigits(draw, national.length));
  const lead = digits.slice(0, Math.max(0, digits.length - national.length));
  const out = reshape(main, lead + fresh);
  return out + extension.replace(/[0-9]/g, () => drawDigits(draw, 1));
}

export const PHONE_RULE: RuleBehaviour = {
  find,
  compact,
  validate,
  labels:
    /phone|\btel\b|mobile|\bcell|\bfax\b|whats\s*app|contact|t[ée]l[ée]fono|telefon|m[óo]vil/i,
  pseudonym,
};
