/**
 * A global entity type as the detector and the redaction modes use it: its declaration (what
 * the listings serve) plus how it is found, validated and stood in for. Each family module
 * (universal.ts, americas.ts, europe.ts, asia-pacific-africa.ts, in/global-rules.ts) exports its
 * rules; catalogue.ts gathers them, and `registerGlobalRule` adds a user's own type without
 * touching the detector. Each rule's source is named in its own module.
 */
import type { TextRule } from './rule.js';
import type { GlobalTypeDeclaration } from './types.js';

/**
 * Deterministic bytes for one stand-in: the same value gets the same bytes within one request
 * (HMAC under a key drawn per request), other values and other requests other bytes.
 */
export type Draw = (count: number) => Uint8Array;

export interface GlobalRule extends TextRule, GlobalTypeDeclaration {
  /**
   * Printed as a block of rows of one length (an MRZ): the characters in each row of the block
   * a value is. OCR often misses a row's run of fillers, so a reading's cover of each row is
   * stretched to the block's full width, that many characters long.
   */
  readonly blockChars?: (value: string) => number;
  /**
   * A stand-in of the same format as `raw` (its separators, grouping and case kept) from the
   * type's reserved space (the type's published rule), made from `draw`'s bytes. It must never be
   * a real identifier, and the detector should not take it for one where the rules allow.
   */
  readonly pseudonym: (raw: string, draw: Draw) => string;
}
