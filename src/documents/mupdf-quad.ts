/** MuPDF's quads and ours. */
import type { mupdf as MuPdf } from './mupdf.js';
import type { Quad } from '../domain/geometry.js';

/** MuPDF quads are [ul, ur, ll, lr]; ours run clockwise from the top-left. */
export function fromMupdfQuad(q: MuPdf.Quad): Quad {
  return [
    { x: q[0], y: q[1] },
    { x: q[2], y: q[3] },
    { x: q[6], y: q[7] },
    { x: q[4], y: q[5] },
  ];
}

export function toMupdfQuad(q: Quad): MuPdf.Quad {
  const [tl, tr, br, bl] = q;
  return [tl.x, tl.y, tr.x, tr.y, bl.x, bl.y, br.x, br.y];
}
