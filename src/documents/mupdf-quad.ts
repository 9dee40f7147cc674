/** MuPDF's quads and ours. */
import type { mupdf as MuPdf } from './mupdf.js';
import type { Quad } from '../domain/geometry.js';

/**
 * MuPDF quads are [ul, ur, ll, lr]; ours run clockwise from the top-left. Read from `at` on in
 * `q`: a quad mupdf.js gave, or MuPDF's WebAssembly memory (stext-lines.ts).
 */
export function fromMupdfQuad(q: ArrayLike<number>, at = 0): Quad {
  const v = (i: number) => q[at + i] ?? 0;
  return [
    { x: v(0), y: v(1) },
    { x: v(2), y: v(3) },
    { x: v(6), y: v(7) },
    { x: v(4), y: v(5) },
  ];
}

export function toMupdfQuad(q: Quad): MuPdf.Quad {
  const [tl, tr, br, bl] = q;
  return [tl.x, tl.y, tr.x, tr.y, bl.x, bl.y, br.x, br.y];
}
