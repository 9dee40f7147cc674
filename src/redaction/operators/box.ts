/**
 * Box: a value's region covered black, in an image's pixels or by true removal from a PDF page
 * (its text leaves the content stream, image pixels under it are blanked). In text, a fixed run
 * of block characters whatever the value's length, so that not even the length is left.
 */
import type { Quad } from '../../domain/geometry.js';
import { redactPdf } from '../pdf.js';
import { coverQuads, coverQuadsInPlace } from '../raster.js';
import type { ImageForm, TextOperator } from './types.js';

/** What `box` puts in place of any value in text. */
export const BOX_RUN = '\u2588'.repeat(8);

interface BoxOperator extends TextOperator<Quad> {
  /**
   * The image form over pixels nobody else holds (a page rendered for this output): filled in
   * place, since a copy of a whole page would only feed the garbage collector.
   */
  readonly imageInPlace: ImageForm<Quad>;
}

export const box: BoxOperator = {
  image: (image, quads) => coverQuads(image, quads),
  imageInPlace: (image, quads) => coverQuadsInPlace(image, quads),
  pdf: (pdf, index, quads) => {
    redactPdf(pdf, [{ page: index, quads }]);
  },
  text: () => BOX_RUN,
};
