/**
 * What a universal module adds to its type's declaration (universal.ts keeps the declarations):
 * how the type is found, compacted, validated and stood in for; and one helper the stand-ins
 * share.
 */
import type { Draw, GlobalRule } from '../global-rule.js';
import type { GlobalTypeDeclaration } from '../types.js';
import { drawDigits, drawLetters } from '../stand-in.js';

export type RuleBehaviour = Omit<GlobalRule, keyof GlobalTypeDeclaration>;

/**
 * `value` with every digit replaced by a drawn digit and every letter by a drawn letter (case
 * kept); anything else (`<`, spaces) stays. Keeps a BBAN's or an MRZ field's character classes.
 */
export function redrawClasses(value: string, draw: Draw): string {
  return Array.from(value, (c) => {
    if (/[0-9]/.test(c)) return drawDigits(draw, 1);
    if (/[A-Z]/.test(c)) return drawLetters(draw, 1);
    if (/[a-z]/.test(c)) return drawLetters(draw, 1).toLowerCase();
    return c;
  }).join('');
}
