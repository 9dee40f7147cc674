/**
 * The operator of each global mode over a page's replacements: box and blur change the regions
 * alone; mask, token and pseudonym draw each region's text there.
 */
import type { Quad } from '../../domain/geometry.js';
import { blur } from './blur.js';
import { box } from './box.js';
import { mask } from './mask.js';
import { pseudonym } from './pseudonym.js';
import { token } from './token.js';
import type { Mode, Operator, Replacement, TextForm, TextMode } from './types.js';

export interface ModeOperator extends Operator<Replacement> {
  /** What is drawn in place of a value over images and PDF pages; null: nothing (a cover). */
  readonly draw: TextForm | null;
  /** What replaces a value in text (a PDF's annotations too); null: the mode has none. */
  readonly text: TextForm | null;
}

/** An operator over quads, given the quads of the replacements. */
function overQuads(operator: Operator<Quad>, text: TextForm | null): ModeOperator {
  const { image, pdf } = operator;
  const quads = (regions: readonly Replacement[]) => regions.map((r) => r.quad);
  return {
    image: (raster, regions) => image(raster, quads(regions)),
    pdf:
      pdf &&
      ((doc, index, regions) => {
        pdf(doc, index, quads(regions));
      }),
    draw: null,
    text,
  };
}

/** The text form of each mode that has one. */
export const TEXT_FORMS: Readonly<Record<TextMode, TextForm>> = {
  box: box.text,
  mask: mask.text,
  token: token.text,
  pseudonym: pseudonym.text,
};

const BY_MODE: Readonly<Record<Mode, ModeOperator>> = {
  box: overQuads(box, box.text),
  blur: overQuads(blur, null),
  mask: { ...mask, draw: mask.text },
  token: { ...token, draw: token.text },
  pseudonym: { ...pseudonym, draw: pseudonym.text },
};

export const operatorFor = (mode: Mode): ModeOperator => BY_MODE[mode];
