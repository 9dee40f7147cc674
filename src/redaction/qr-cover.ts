/**
 * The cover of a QR code, for every endpoint that covers one (masking's Aadhaar QR, /redact-pii's
 * Secure QR): the symbol and, where it can, part of its quiet zone, since a QR cut at its edge
 * can sometimes still be decoded and the outline ZXing gives for a symbol it could not decode (a
 * photo) may fall short. The margin stays off the characters that must stay readable (a number's
 * last four digits printed right under it) and, where a smaller margin allows, off the words
 * printed beside it (an address, a caption); the symbol itself is always covered.
 */
import type { Quad } from '../domain/geometry.js';
import type { PageText } from '../domain/text-layer.js';
import {
  boundsOf,
  boxArea,
  boxesMeet,
  clipAway,
  expandQuad,
  overlapArea,
  scaleQuad,
} from './geometry.js';

/** Margins tried round the symbol, widest first, as shares of its side. */
const MARGINS = [0.1, 0.05, 0] as const;

/**
 * The share of a QR's box a cover cut back around readable characters must still cover. A QR
 * decodes from no less than 70% of its codewords (level H corrects 30%), so a symbol 85% covered
 * cannot be read, even when its box was found a little larger than the symbol.
 */
const SYMBOL_KEPT = 0.85;

/**
 * A QR code with this share of its box under other covers cannot be decoded (level H restores
 * 30% of its codewords).
 */
const UNDECODABLE = 0.5;

/** How far past its box a character's ink may reach, as a share of its height. */
const WORD_INK_REACH = 0.3;

const touches = (a: Quad, b: Quad) => boxesMeet(boundsOf(a), boundsOf(b));

/**
 * Whether other covers already hide enough of the symbol that it cannot be decoded: an
 * undecodable block found there (a bold number's digits with a pen line and a stamp over them
 * look like QR texture) needs no cover of its own, which would reach the lines around them.
 */
export function hiddenUnder(symbol: Quad, covers: readonly Quad[]): boolean {
  const q = boundsOf(symbol);
  const area = boxArea(q);
  if (area <= 0) return false;
  // Summed: one number's covers barely overlap.
  const covered = covers.reduce((sum, cover) => sum + overlapArea(q, boundsOf(cover)), 0);
  return covered / area >= UNDECODABLE;
}

/**
 * The boxes of the characters `layers` read (blanks left out), each layer's scaled by
 * `scale(layer)` into the units the symbol's cover is chosen in.
 */
export function charactersRead(
  layers: readonly PageText[],
  scale: (layer: PageText) => number,
): Quad[] {
  return layers.flatMap((layer) =>
    layer.lines
      .flatMap((line) => line.chars)
      .filter((c) => c.text.trim() !== '')
      .map((c) => scaleQuad(c.quad, scale(layer))),
  );
}

/**
 * The characters read on the page outside the symbol (its modules taken for letters do not
 * count), each grown by the ink its box may miss (a comma's tail, a line's end).
 */
export function wordsBeside(chars: readonly Quad[], symbol: Quad): Quad[] {
  const inner = boundsOf(symbol);
  return chars
    .filter((q) => {
      const b = boundsOf(q);
      const cx = (b.x0 + b.x1) / 2;
      const cy = (b.y0 + b.y1) / 2;
      return cx < inner.x0 || cx > inner.x1 || cy < inner.y0 || cy > inner.y1;
    })
    .map((q) => {
      const b = boundsOf(q);
      return expandQuad(q, WORD_INK_REACH * Math.max(b.x1 - b.x0, b.y1 - b.y0));
    });
}

/**
 * The cover of `symbol` (in the pixels it was found in), in page units (`toPage` per pixel):
 * the widest margin clear of `keep` and `words`, else the widest clear of `keep`, else the
 * widest cut back to clear `keep` that still hides the symbol, else the symbol alone.
 */
export function qrCover(
  symbol: Quad,
  toPage: number,
  keep: readonly Quad[],
  words: readonly Quad[],
): Quad {
  const side = boundsOf(symbol).x1 - boundsOf(symbol).x0;
  const covers = MARGINS.map((share) => scaleQuad(expandQuad(symbol, share * side), toPage));
  const widest = covers[0] as Quad;
  const clear =
    covers.find((cover) => ![...keep, ...words].some((q) => touches(cover, q))) ??
    covers.find((cover) => !keep.some((q) => touches(cover, q)));
  if (clear) return clear;
  const cut = clipAway(widest, keep);
  if (cut !== null) {
    const s = boundsOf(scaleQuad(symbol, toPage));
    if (overlapArea(s, boundsOf(cut)) >= SYMBOL_KEPT * boxArea(s)) return cut;
  }
  return covers.at(-1) as Quad;
}
