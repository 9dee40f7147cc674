/**
 * Whether a name printed on a card (as OCR read it) and the name signed into its QR are the same
 * name. Tolerates what printing and OCR change: case, spacing, dots, initials for given names,
 * a space lost or gained, and letters OCR confuses (O/0/D, I/L/1, S/5, B/8, ...). It does not
 * tolerate what makes another person's name: a letter that no OCR confusion explains changes a
 * short name ("Asha" is not "Usha", "Anita" is not "Anika"); long names may differ by one such
 * edit (a dropped letter).
 */

/** Letters (and digits) that OCR takes for one another; substituting within a group is cheap. */
const CONFUSABLE_GROUPS = ['O0DQ', 'IL1JT', 'S5', 'B8', 'GC6', 'UV', 'EF', 'MN', 'Z2', 'HN'];
const CONFUSABLE_COST = 0.34;

function substitutionCost(a: string, b: string): number {
  if (a === b) return 0;
  return CONFUSABLE_GROUPS.some((g) => g.includes(a) && g.includes(b)) ? CONFUSABLE_COST : 1;
}

/** Levenshtein distance in which a confusable substitution costs a third of an edit. */
export function ocrDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current.push(
        Math.min(
          (previous[j] ?? 0) + 1,
          (current[j - 1] ?? 0) + 1,
          (previous[j - 1] ?? 0) + substitutionCost(a[i - 1] ?? '', b[j - 1] ?? ''),
        ),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Edits allowed between two readings of a word of this length: confusions only when short. */
function budget(length: number): number {
  if (length <= 5) return 0.7;
  if (length <= 9) return 1.2;
  return 2.2;
}

function tokens(name: string): string[] {
  return (
    name
      .toUpperCase()
      // Letter pairs OCR reads for one letter, on both sides alike.
      .replace(/RN/g, 'M')
      .replace(/VV/g, 'W')
      .replace(/[^A-Z0-9 .]/g, '')
      .split(/[\s.]+/)
      .filter((t) => t.length > 0)
  );
}

function sameToken(a: string, b: string): boolean {
  // An initial stands for a given name that starts with it.
  if (a.length === 1 || b.length === 1) return a[0] === b[0];
  return ocrDistance(a, b) <= budget(Math.max(a.length, b.length));
}

export function sameName(printed: string, signed: string): boolean {
  const [p, s] = [tokens(printed), tokens(signed)];
  if (p.length === 0 || s.length === 0) return false;
  if (p.length === s.length) return p.every((t, i) => sameToken(t, s[i] ?? ''));
  // A space lost or gained by OCR: the whole name, without initials' help and with a budget a
  // word shorter, so that a joined name is held to no less than its words would be.
  const [pj, sj] = [p.join(''), s.join('')];
  return ocrDistance(pj, sj) <= budget(Math.max(pj.length, sj.length) - 5);
}
