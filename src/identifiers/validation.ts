/**
 * What a catalogue validator says about one candidate value (already compacted: separators
 * removed, upper case). `rule` names the check in words fit for a report (never the value);
 * `confidence` (0-1) says how sure a valid value is of its type, before any context word.
 */
export type Validation =
  | { readonly valid: true; readonly rule: string; readonly confidence: number }
  | { readonly valid: false; readonly rule: string; readonly reason: string };

export const accept = (rule: string, confidence: number): Validation => ({
  valid: true,
  rule,
  confidence,
});

export const reject = (rule: string, reason: string): Validation => ({
  valid: false,
  rule,
  reason,
});
