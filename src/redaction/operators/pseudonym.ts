/**
 * Pseudonym: a value replaced by a stand-in of its printed shape from its type's reserved range
 * (stand-ins.ts); over an image or a PDF page the stand-in is drawn in its place. A value
 * without a rule for its type gets a token, as does a type whose reserved range ran out.
 */
import { replacePdfRegions } from '../pdf-text-replace.js';
import { replaceQuads } from '../raster-replace.js';
import { token } from './token.js';
import type { Replacement, TextOperator } from './types.js';

export const pseudonym: TextOperator<Replacement> = {
  image: replaceQuads,
  pdf: replacePdfRegions,
  text: (found, raw, context) =>
    context.rule
      ? context.standIns.pseudonym(context.rule, found.value, raw)
      : token.text(found, raw, context),
};
