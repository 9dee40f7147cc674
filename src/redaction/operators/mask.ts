/**
 * Mask: a value replaced by asterisks, its last `mask_keep` letters and digits kept and its
 * separators kept; over an image or a PDF page the masked value is drawn in its place.
 */
import { replacePdfRegions } from '../pdf-text-replace.js';
import { replaceQuads } from '../raster-replace.js';
import type { Replacement, TextOperator } from './types.js';

/** `raw` as asterisks, its last `keep` letters and digits kept, its separators kept. */
export function maskValue(raw: string, keep: number): string {
  const chars = Array.from(raw);
  let kept = 0;
  for (let i = chars.length - 1; i >= 0; i -= 1) {
    const c = chars[i] as string;
    if (!/[\p{L}\p{N}]/u.test(c)) continue;
    if (kept < keep) kept += 1;
    else chars[i] = '*';
  }
  return chars.join('');
}

export const mask: TextOperator<Replacement> = {
  image: replaceQuads,
  pdf: replacePdfRegions,
  text: (_found, raw, { maskKeep }) => maskValue(raw, maskKeep),
};
