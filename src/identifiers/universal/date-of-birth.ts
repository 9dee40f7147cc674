/**
 * DATE_OF_BIRTH (a person's birth date, as forms and letters print it).
 *
 * Formats: ISO `1985-03-12` (also with `/` or `.`), numeric day-month-year or month-day-year
 * with `/`, `.` or `-` and a four- or two-digit year (`12/03/1985`, `03/12/85`), and spelled
 * months (`12 March 1985`, `12-Mar-1985`, `12th of March 1985`, `March 12th, 1985`). A date is a
 * birth date only after a label (DOB, D.O.B., date of birth, born, birthday, geb., né(e) le,
 * fecha de nacimiento, ...): the rule needs one. The date must exist (leap years counted), not
 * lie in the future and give an age of at most 125. `03/04/1985` is taken if either reading
 * (3 April, 4 March) is a date; the document's convention is the apply step's affair. A two-digit
 * year is in this century unless that is in the future. Source: the type's published rule.
 *
 * Stand-in: the published rule offers a document-scoped date shift (plausible) or an
 * impossible date in the same format (guaranteed). A Draw is keyed per value, not per document,
 * so no document-wide shift is possible here; the impossible date is used: 30/31 February,
 * 31 April, June, September or November, in the original's format, the year moved one to three
 * years. No person has it, and the validator refuses it (`date`), so a second pass leaves it.
 *
 * More information: https://en.wikipedia.org/wiki/Date_format_by_country
 *
 *   DOB: 12/03/1985, born 12 March 1985   valid (with their labels)
 *   DOB: 31/02/1985 (date), DOB: 12/03/2199 (date: future), 12/03/1985 without a label (context)
 */
import type { Draw } from '../global-rule.js';
import { drawBelow } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';
import type { RuleBehaviour } from './behaviour.js';

const MONTHS = [
  'january', 'february', 'march', 'april', 'may', 'june',
  'july', 'august', 'september', 'october', 'november', 'december',
] as const; // prettier-ignore

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DAY = '[0-9]{1,2}(?:st|nd|rd|th)?';

/** Every alternative is a fixed sequence of bounded pieces: no nested repetition. */
const PATTERN = new RegExp(
  '(?<![0-9A-Za-z])(?:' +
    [
      '[0-9]{4}([-/.])[0-9]{1,2}\\1[0-9]{1,2}',
      '[0-9]{1,2}([-/.])[0-9]{1,2}\\2(?:[0-9]{4}|[0-9]{2})',
      `${DAY}(?:[ -]|\\s+of\\s+)${MONTH},?[ -](?:[0-9]{4}|[0-9]{2})`,
      `${MONTH} ${DAY},? (?:[0-9]{4}|[0-9]{2})`,
    ].join('|') +
    ')(?![0-9A-Za-z]|[-/.][0-9])',
  'gi',
);

/** A birth-date label close before the value, with no digits between (another date's label). */
const LABELS =
  /(?:\bd\.?\s?o\.?\s?b\b\.?|date\s+of\s+birth|birth\s*date|\bborn\b|birthday|\bgeb\.|geboren(?:\s+am)?|geburtsdatum|\bn[ée]e?\s+le|date\s+de\s+naissance|fecha\s+de\s+nacimiento|data\s+di\s+nascita)[^0-9]{0,24}$/i;

/** An ordinal's suffix (`12th`) or the `of` of `12th of March`: no month names. */
const ORDINAL_OR_OF = /(?<=[0-9])(?:st|nd|rd|th)\b|\bof\b/gi;

interface Ymd {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

function monthOf(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, '');
  return MONTHS.findIndex((m) => m.startsWith(w.slice(0, 3))) + 1;
}

function fullYear(printed: string, now: Date): number {
  if (printed.length === 4) return Number(printed);
  const yy = Number(printed);
  return 2000 + yy <= now.getUTCFullYear() ? 2000 + yy : 1900 + yy;
}

/** The readings of `value` as a date (two for a numeric day/month that could be either). */
function readings(value: string, now: Date): Ymd[] {
  const numbers = value.match(/[0-9]+/g) ?? [];
  const word = /[A-Za-z]{3,}/.exec(value.replace(ORDINAL_OR_OF, ''))?.[0];
  const [a = '', b = '', c = ''] = numbers;
  if (word) return [{ year: fullYear(b, now), month: monthOf(word), day: Number(a) }];
  if (a.length === 4) return [{ year: Number(a), month: Number(b), day: Number(c) }];
  const year = fullYear(c, now);
  return [
    { year, month: Number(b), day: Number(a) },
    { year, month: Number(a), day: Number(b) },
  ];
}

function exists({ year, month, day }: Ymd): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day && month >= 1;
}

function plausible({ year, month, day }: Ymd, now: Date): boolean {
  const time = Date.UTC(year, month - 1, day);
  return time <= now.getTime() && now.getUTCFullYear() - year <= 125;
}

function validate(value: string): Validation {
  const rule = 'a calendar date, not in the future, age at most 125, after a birth-date label';
  const now = new Date();
  const dates = readings(value, now).filter(exists);
  if (dates.length === 0) return reject(rule, 'date');
  if (!dates.some((d) => plausible(d, now))) return reject(rule, 'date');
  return accept(rule, 0.8);
}

/** Impossible day-month pairs. */
const IMPOSSIBLE: readonly (readonly [number, number])[] = [
  [30, 2], [31, 2], [31, 4], [31, 6], [31, 9], [31, 11],
]; // prettier-ignore

/** `word` in the case style of `like` (UPPER, Title or lower). */
function caseLike(like: string, word: string): string {
  if (like === like.toUpperCase()) return word.toUpperCase();
  if (/^[A-Z]/.test(like)) return word.slice(0, 1).toUpperCase() + word.slice(1);
  return word;
}

function pseudonym(raw: string, draw: Draw): string {
  const [day, month] = IMPOSSIBLE[drawBelow(draw, IMPOSSIBLE.length)] ?? [31, 2];
  const shift = (1 + drawBelow(draw, 3)) * (drawBelow(draw, 2) === 0 ? -1 : 1);
  const numbers = raw.match(/[0-9]+/g) ?? [];
  const spelled = /[A-Za-z]{3,}/.test(raw.replace(ORDINAL_OR_OF, ''));
  // Which number is the day, the month and the year.
  let roles: string[];
  if (spelled) roles = ['day', 'year'];
  else if ((numbers[0] ?? '').length === 4) roles = ['year', 'month', 'day'];
  else if (Number(numbers[1]) > 12) roles = ['month', 'day', 'year'];
  else roles = ['day', 'month', 'year'];
  let index = 0;
  return raw.replace(/[0-9]+|[A-Za-z]+\.?/g, (token) => {
    if (/^[0-9]/.test(token)) {
      const role = roles[index++];
      if (role === 'day') return String(day);
      if (role === 'month') return String(month).padStart(token.length, '0');
      const year = fullYear(token, new Date()) + shift;
      return String(year).slice(-token.length).padStart(token.length, '0');
    }
    const bare = token.replace(/\.$/, '');
    if (/^(?:st|nd|rd|th)$/i.test(bare)) return caseLike(bare, day === 31 ? 'st' : 'th');
    if (monthOf(bare) === 0 || /^of$/i.test(bare)) return token;
    const name = MONTHS[month - 1] ?? 'february';
    const short = bare.length <= 4 ? name.slice(0, 3) : name;
    return caseLike(bare, short) + token.slice(bare.length);
  });
}

export const DATE_OF_BIRTH_RULE: RuleBehaviour = {
  pattern: PATTERN,
  compact: (raw) => raw.replace(/\s+/g, ' ').trim(),
  validate,
  labels: LABELS,
  needsLabel: true,
  pseudonym,
};
