/**
 * Token: a value replaced by `[<TYPE>_<n>]`, the same value the same token throughout one
 * request (stand-ins.ts); over an image or a PDF page the token is drawn in its place.
 */
import { replacePdfRegions } from '../pdf-text-replace.js';
import { replaceQuads } from '../raster-replace.js';
import type { Replacement, TextOperator } from './types.js';

export const token: TextOperator<Replacement> = {
  image: replaceQuads,
  pdf: replacePdfRegions,
  text: ({ type, value }, _raw, { standIns }) => standIns.token(type, value),
};
