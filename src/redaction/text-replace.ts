/** Values replaced in plain text by an operator's text form (by-mode.ts TEXT_FORMS). */
import type { GlobalRule } from '../identifiers/global-rule.js';
import type { TextForm } from './operators/types.js';
import type { StandIns } from './stand-ins.js';

/** A value found in text: [start, end) in UTF-16 units, compacted `value`. */
interface Found {
  readonly type: string;
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

/** `text` with every value found (in text order, none overlapping) replaced by `replace`. */
export function replaceFindings(
  text: string,
  findings: readonly Found[],
  replace: TextForm,
  options: { readonly rules: readonly GlobalRule[]; readonly maskKeep: number },
  standIns: StandIns,
): string {
  const rules = new Map(options.rules.map((r) => [r.type, r]));
  let out = '';
  let copied = 0;
  for (const f of findings) {
    const raw = text.slice(f.start, f.end);
    out += text.slice(copied, f.start);
    out += replace(f, raw, { rule: rules.get(f.type), maskKeep: options.maskKeep, standIns });
    copied = f.end;
  }
  return out + text.slice(copied);
}
