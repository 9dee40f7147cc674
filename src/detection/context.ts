/**
 * The words before a value, where its label may stand, for the text finder (text-finder.ts).
 */

const WORD = /[\p{L}\p{M}\p{N}]/u;
const NOT_WORD = /[^\p{L}\p{M}\p{N}]/u;

/**
 * The last `length` characters of `text`, less a word cut in two at their start: the cut end of
 * "r.patel@example.com" is "tel@example.com", which would read as a phone label ("tel").
 */
export function tail(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = text.length - length;
  if (!WORD.test(text[cut - 1] ?? '')) return text.slice(cut);
  const rest = text.slice(cut);
  const next = rest.search(NOT_WORD);
  return next === -1 ? '' : rest.slice(next);
}

/** What ends a label broken over two lines: "A second mobile" / "number +91-...". */
const LABEL_TAIL = /^\s*(?:no\.?|nos?\.?|number|num\.?|#)\s*[:.-]?\s*$/i;

/**
 * The text before `start` on its line, at most `reach` characters; when the value starts its
 * line (a card or a form prints the label above the value), or only the end of a label stands
 * before it there (a sentence wrapped after "mobile", the line going on "number ..."), the end
 * of the line above as well.
 */
export function textBefore(text: string, start: number, reach: number): string {
  const window = tail(text.slice(0, start), reach);
  const lines = window.split('\n');
  const own = lines.at(-1) ?? '';
  return /[A-Za-z0-9]/.test(own) && !LABEL_TAIL.test(own) ? own : lines.slice(-2).join('\n');
}
