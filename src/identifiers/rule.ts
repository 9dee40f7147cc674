/**
 * What every identifier type is to the text finder, Indian or global: where its candidates are
 * in raw text, how a candidate is compacted and validated, and which words before it speak for
 * it. The two catalogue views add their own declarations on top: `IndianRule` (the /redact-pii
 * names, in/redact-pii-rules.ts) and `GlobalRule` (the global names and stand-ins,
 * global-rule.ts). The finder (detection/text-finder.ts) reads only this shape.
 */
import type { Validation } from './validation.js';

/** What the caller knows about where the text comes from. */
export interface FindHints {
  /** ISO-2 codes of the countries the document may come from (`countries`); empty: unknown. */
  readonly countries: readonly string[];
  /**
   * The text is an OCR reading: a finder may also take what a misread made of a value (an IPv6
   * address whose `::` was read as one colon). Typed text and a PDF's own text get no repair.
   */
  readonly ocr?: boolean;
}

/** A candidate's place in the text, [start, end) in UTF-16 units. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface TextRule {
  readonly type: string;
  /**
   * Candidates in raw text: a global (`g`) pattern whose whole match is the value as printed
   * (separators included), or a finder for types a pattern cannot express (PHONE uses
   * libphonenumber's). Exactly one of the two.
   */
  readonly pattern?: RegExp;
  readonly find?: (text: string, hints: FindHints) => Iterable<Span>;
  /** The candidate as validated: separators removed, case folded where the type ignores it. */
  readonly compact: (raw: string) => string;
  /** The check: never throws; `rule` names it for reports, never with the value. */
  readonly validate: (value: string) => Validation;
  /** Words right before a value (or at the end of the line above) that raise its confidence. */
  readonly labels?: RegExp;
  /**
   * Words that speak for this type as its labels do, but are too common to speak against
   * another type's value after them (which `labels` do).
   */
  readonly phrases?: RegExp;
  /** Only found with one of its labels right before it (a date is a birth date only so). */
  readonly needsLabel?: boolean;
  /**
   * What stands in for a label on the value's own line, for a type that needs one: a bank
   * account number beside an IFSC code.
   */
  readonly companion?: RegExp;
  /**
   * A wider reading taken only with one of the rule's labels before it: any Indian phone number
   * (a landline too) after "Phone" or "Mobile No.", where without a label only mobiles count.
   */
  readonly withLabel?: {
    readonly pattern: RegExp;
    readonly validate: (value: string) => Validation;
  };
  /**
   * Its printed form is no other type's (an e-mail address), so another type's label before it
   * says nothing against it: "Contact: priya@example.in" is an address, "contact" a phone label.
   */
  readonly unmistakable?: boolean;
  /**
   * What each character of the compact value must be, for repairing OCR's letter-digit
   * confusions: L a letter, D a digit, anything else that exact character or (`.`) any.
   */
  readonly shape?: string;
}
