/**
 * Small readers for values printed on cards: dates, years, names, and the similarity that
 * decides whether an OCR reading and the signed QR's value are the same text.
 */

/** Letters OCR gives for digits inside a number-only token. */
const DIGIT_FOR: Readonly<Record<string, string>> = {
  O: '0',
  o: '0',
  D: '0',
  Q: '0',
  I: '1',
  l: '1',
  i: '1',
  '|': '1',
  S: '5',
  s: '5',
  B: '8',
  Z: '2',
};

/** Repairs confusable letters in a token that must be all digits. */
export function asDigits(token: string): string {
  return token.replace(/[OoDQIli|SsBZ]/g, (c) => DIGIT_FOR[c] ?? c);
}

const DIGITISH = '[0-9OoDQIli|SsBZ]';
const DATE = new RegExp(
  `(?<![0-9])(${DIGITISH}{2})\\s?[/\\-.]\\s?(${DIGITISH}{2})\\s?[/\\-.]\\s?(${DIGITISH}{4})(?![0-9])`,
);

export interface FoundDate {
  readonly iso: string;
  /** Index range in the text the date was read from. */
  readonly from: number;
  readonly to: number;
}

/** A real calendar date between 1900 and this year, as ISO; null otherwise (never a guess). */
export function isoDate(day: number, month: number, year: number, now = new Date()): string | null {
  if (year < 1900 || year > now.getUTCFullYear()) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    return null;
  }
  return date.toISOString().slice(0, 10);
}

/** The first DD/MM/YYYY (or - or . separated) date in the text that is a real date. */
export function findDate(text: string): FoundDate | null {
  const match = DATE.exec(text);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  const [day, month, year] = [match[1], match[2], match[3]].map((t) => Number(asDigits(t)));
  const iso = isoDate(day ?? 0, month ?? 0, year ?? 0);
  return iso ? { iso, from: match.index, to: match.index + match[0].length } : null;
}

/** A date with one of its two separators lost: `17/051976`, `1705/1976`. */
const DATE_ONE_SEPARATOR = new RegExp(
  `(?<![0-9])(${DIGITISH}{2})(?:\\s?[/\\-.]\\s?(${DIGITISH}{2})|(${DIGITISH}{2})\\s?[/\\-.]\\s?)(${DIGITISH}{4})(?![0-9])`,
);

/**
 * As findDate, and also a date whose second or first separator the recogniser lost at a small
 * size (a thin slash between two digits). Only for text known to be the birth line (a second
 * look at it): elsewhere eight digits with one slash are not surely a date.
 */
export function findDateLoosely(text: string): FoundDate | null {
  const strict = findDate(text);
  if (strict) return strict;
  const match = DATE_ONE_SEPARATOR.exec(text);
  const [day, month, year] = [match?.[1], match?.[2] ?? match?.[3], match?.[4]];
  if (!match || !day || !month || !year) return null;
  const iso = isoDate(Number(asDigits(day)), Number(asDigits(month)), Number(asDigits(year)));
  return iso ? { iso, from: match.index, to: match.index + match[0].length } : null;
}

/** A plausible year of birth (1900 to this year) in the text. */
export function findYear(
  text: string,
  now = new Date(),
): { year: number; from: number; to: number } | null {
  const match = new RegExp(`(?<![0-9])(${DIGITISH}{4})(?![0-9])`).exec(text);
  if (!match?.[1]) return null;
  const year = Number(asDigits(match[1]));
  if (!Number.isInteger(year) || year < 1900 || year > now.getUTCFullYear()) return null;
  return { year, from: match.index, to: match.index + match[0].length };
}

/** Share of a line's characters that are Latin letters, spaces or name punctuation. */
export function latinShare(text: string): number {
  const letters = text.replace(/[^A-Za-z .'-]/g, '').length;
  return text.length === 0 ? 0 : letters / text.length;
}

/**
 * Collapses spaces and trims the punctuation OCR leaves at the ends of a name; restores a space
 * OCR lost between two title-case words ("NaveenJain").
 */
export function cleanName(text: string): string {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/\s+/g, ' ')
    .replace(/^[^A-Za-z]+|[^A-Za-z.]+$/g, '')
    .trim();
}

/** Words that stay in lower case inside a printed name ("Rahul de Souza", "Syed bin Ali"). */
const NAME_PARTICLES = new Set([
  'de',
  'da',
  'di',
  'del',
  'der',
  'van',
  'von',
  'bin',
  'bint',
  'binti',
  'al',
  'el',
]);

/**
 * A name printed in title case with a word's capital read as lower case ("Neha joshi", a small
 * or blurred J read as j): every word capitalised as printed. A name in capitals, or with
 * particles, is left as it is.
 */
export function titleCaseName(name: string): string {
  const words = name.split(' ');
  if (!/^[A-Z][a-z]/.test(words[0] ?? '')) return name;
  return words
    .map((w) =>
      /^[a-z]/.test(w) && !NAME_PARTICLES.has(w) ? w.charAt(0).toUpperCase() + w.slice(1) : w,
    )
    .join(' ');
}

/** Levenshtein distance, for short strings (names, dates, pincodes). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(
        Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** 1 for the same text (ignoring case, spaces and dots), falling towards 0 with each edit. */
export function similarity(a: string, b: string): number {
  const norm = (s: string) => s.toLowerCase().replace(/[\s.]+/g, '');
  const [x, y] = [norm(a), norm(b)];
  if (x.length === 0 && y.length === 0) return 1;
  return 1 - editDistance(x, y) / Math.max(x.length, y.length);
}
