/**
 * OCR confuses letters and digits that look alike (O and 0, I and 1, S and 5, B and 8, Z and 2,
 * G and 6), and capitals with their lower-case look-alikes (c, s, z...): a GSTIN whose PAN part
 * holds an O was read "160JVCI4792OBZ9", an IFSC "IcIc0453040", and each, failing its rule,
 * was left uncovered. Where a word of an OCR line has the length of a structured type
 * (a rule's `shape`, its alphabet position by position) and reads as that type once its look-alikes are put back where the shape
 * wants a letter or a digit, the line is read with the repaired word. Only words of letters
 * and digits both are repaired, in three places at most, and the result must pass the type's
 * validator: a run of digits (a phone number) is never turned into a voter ID ("8001253389"
 * fits LLLDDDDDDD as "BOO1253389"). The characters keep their boxes.
 */
import type { TextRule } from '../identifiers/rule.js';
import type { TextLine } from '../domain/text-layer.js';

const AS_LETTER: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '5': 'S',
  '8': 'B',
  '6': 'G',
  '4': 'A',
  '7': 'Z',
};
const AS_DIGIT: Readonly<Record<string, string>> = {
  O: '0',
  Q: '0',
  D: '0',
  I: '1',
  L: '1',
  l: '1',
  Z: '2',
  S: '5',
  B: '8',
  G: '6',
  A: '4',
};

/**
 * The characters each position of `word` may stand for under `shape`, the character itself
 * first; null when a position cannot be made to fit. A position of any character (a GSTIN's
 * check character, an IFSC's branch code) may also be its look-alike: "13SWKG16686Z977" is
 * 13SWKGI6686Z9ZZ, whose check character the OCR read as a 7.
 */
function choices(word: string, shape: string): string[][] | null {
  const out: string[][] = [];
  for (let i = 0; i < shape.length; i += 1) {
    const want = shape[i] as string;
    const c = word[i] as string;
    const digit = /[0-9]/.test(c);
    const asLetter = /[A-Z]/.test(c) ? c : AS_LETTER[c];
    const asDigit = digit ? c : AS_DIGIT[c];
    let options: (string | undefined)[];
    if (want === '.') options = [c, digit ? AS_LETTER[c] : AS_DIGIT[c]];
    else if (want === 'L') options = [asLetter];
    else if (want === 'D') options = [asDigit];
    else options = [(/[0-9]/.test(want) ? asDigit : asLetter) === want ? want : undefined];
    const possible = options.filter((o): o is string => o !== undefined);
    if (possible.length === 0) return null;
    out.push(possible);
  }
  return out;
}

/** Every word `options` can spell. */
function readings(options: readonly string[][]): string[] {
  let all = [''];
  for (const position of options) all = all.flatMap((head) => position.map((c) => head + c));
  return all;
}

/** Look-alikes a word may have had swapped, lower-case look-alikes of capitals included. */
const MAX_REPAIRS = 3;
/** Lower-case letters shaped like their capitals, which OCR returns for small capitals. */
const LOWER_LOOK_ALIKES = /[ckopsuvwxz]/;

/**
 * The word as one of `rules`, repaired with the fewest swaps; null when it reads as one of
 * them already (a valid voter ID is never "repaired" into a PAN) or cannot be one.
 */
function repairWord(word: string, rules: readonly TextRule[]): string | null {
  if (!/[A-Za-z]/.test(word) || !/[0-9]/.test(word)) return null;
  if (rules.some((r) => r.validate(word).valid)) return null;
  // Capitals read as their lower-case look-alikes ("IEzLU5082S"); other lower case stays.
  const cased = Array.from(word)
    .map((c) => (LOWER_LOOK_ALIKES.test(c) ? c.toUpperCase() : c))
    .join('');
  let best: { text: string; repairs: number } | null = null;
  for (const rule of rules) {
    if (!rule.shape || rule.shape.length !== word.length) continue;
    const options = choices(cased, rule.shape);
    if (options === null) continue;
    for (const fitted of readings(options)) {
      const repairs = Array.from(fitted).filter((c, i) => c !== word[i]).length;
      if (repairs > MAX_REPAIRS || (best && best.repairs <= repairs)) continue;
      if (rule.validate(fitted).valid) best = { text: fitted, repairs };
    }
  }
  return best?.text ?? null;
}

/** A value this long or longer may be rejoined over a stray space (a passport's 8 may not). */
const MIN_JOINED = 10;

/**
 * Whether `first` and `second`, read without the space between them, are a structured value
 * (repaired or not) that neither is alone: OCR's space-restoring put a space inside
 * "09LKEPV3251 L5ZA". Only long structured types qualify, so that two short words never make
 * a passport number.
 */
function joinsAsValue(first: string, second: string, all: readonly TextRule[]): boolean {
  const rules = all.filter((r) => r.shape);
  const joined = first + second;
  if (joined.length < MIN_JOINED) return false;
  if (!rules.some((r) => r.shape?.length === joined.length)) return false;
  const alone = (word: string) =>
    rules.some((r) => r.validate(word).valid) || repairWord(word, all) !== null;
  if (alone(first) || alone(second)) return false;
  return (
    rules.some((r) => r.shape?.length === joined.length && r.validate(joined).valid) ||
    repairWord(joined, all) !== null
  );
}

/** The line without the stray spaces inside structured values (see joinsAsValue). */
function withoutStraySpaces(line: TextLine, rules: readonly TextRule[]): TextLine {
  const words = [...line.text.matchAll(/[A-Za-z0-9]+/g)];
  const stray = new Set<number>();
  for (let i = 0; i + 1 < words.length; i += 1) {
    const [a, b] = [words[i], words[i + 1]];
    if (!a || !b || b.index !== a.index + a[0].length + 1 || line.text[b.index - 1] !== ' ')
      continue;
    if (joinsAsValue(a[0], b[0], rules)) stray.add(b.index - 1);
  }
  if (stray.size === 0) return line;
  const chars = line.chars.filter((_, i) => !stray.has(i));
  return { ...line, chars, text: chars.map((c) => c.text).join('') };
}

/** Types whose digits end in a check digit, which a digit read twice cannot pass by chance alone. */
const CHECKED_DIGITS = new Set(['aadhaar', 'vid']);

/** Whether `text` is, whole, a valid value of one of `rules` (by its pattern and its check). */
function wholeValue(text: string, rules: readonly TextRule[]): boolean {
  return rules.some((rule) => {
    if (!rule.pattern) return false;
    const pattern = new RegExp(rule.pattern.source, rule.pattern.flags.replace('g', ''));
    const match = pattern.exec(text);
    return match?.[0] === text && rule.validate(rule.compact(text)).valid;
  });
}

/**
 * The line without a digit read twice inside a grouped number. Greedy CTC decoding writes a
 * digit whose strokes span two steps with a blank between them as two: a VID on a 200 dpi scan
 * was read "3667 51922 0754 3969" and left uncovered. Where a run of digit groups, one digit
 * too long for an Aadhaar number or a VID, has a digit twice in a row and is a valid one with
 * one of the two taken out (its grouping and its check digit), the line is read without it.
 * Of the two, the one at the group's edge stays, so that the value's boxes still span the
 * whole group.
 */
function withoutDoubledDigits(line: TextLine, rules: readonly TextRule[]): TextLine {
  const checked = rules.filter((r) => CHECKED_DIGITS.has(r.type));
  if (checked.length === 0) return line;
  const dropped = new Set<number>();
  for (const run of line.text.matchAll(/(?<![A-Za-z0-9])[0-9]+(?:[ -][0-9]+)+(?![A-Za-z0-9])/g)) {
    if (wholeValue(run[0], checked)) continue;
    for (let i = 0; i + 1 < run[0].length; i += 1) {
      if (!/[0-9]/.test(run[0][i] as string) || run[0][i] !== run[0][i + 1]) continue;
      const groupStart = i === 0 || !/[0-9]/.test(run[0][i - 1] as string);
      const drop = groupStart ? i + 1 : i;
      if (!wholeValue(run[0].slice(0, drop) + run[0].slice(drop + 1), checked)) continue;
      dropped.add(run.index + drop);
      break;
    }
  }
  if (dropped.size === 0) return line;
  const chars = line.chars.filter((_, i) => !dropped.has(i));
  return { ...line, chars, text: chars.map((c) => c.text).join('') };
}

/**
 * The line with its look-alike-damaged words repaired as one of `rules`, stray spaces inside
 * structured values and digits read twice inside grouped numbers removed (the same line when
 * there is nothing to mend). Rules without a shape take no part in the look-alikes.
 */
export function repairLine(source: TextLine, rules: readonly TextRule[]): TextLine {
  if (source.chars.some((c) => c.text.length !== 1)) return source;
  const line = withoutStraySpaces(withoutDoubledDigits(source, rules), rules);
  let text = line.text;
  for (const match of line.text.matchAll(/[A-Za-z0-9]+/g)) {
    const repaired = repairWord(match[0], rules);
    if (repaired === null) continue;
    text = text.slice(0, match.index) + repaired + text.slice(match.index + repaired.length);
  }
  if (text === line.text) return line;
  return {
    ...line,
    text,
    chars: line.chars.map((c, i) => (c.text === text[i] ? c : { ...c, text: text[i] as string })),
  };
}
