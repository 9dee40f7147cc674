/**
 * Which way a detected box reads, from its shape alone. One detection pass finds text at any
 * quarter turn: a box clearly longer than tall is horizontal (0 or 180), clearly taller than
 * long is vertical (90 or 270); the direction classifier then settles the flip. A nearly
 * square box (one or two characters) says nothing by its shape, so it borrows the
 * orientation of the nearest line that does.
 */
import type { RotatedRect } from '../domain/geometry.js';
import type { Orientation } from '../domain/geometry.js';

export type Axis = 'horizontal' | 'vertical' | 'unknown';

/** `elongation`: how much longer than wide a box must be for its shape to decide (PaddleOCR rotates at 1.5). */
export function axisOf(rect: RotatedRect, elongation: number): Axis {
  if (rect.width >= elongation * rect.height) return 'horizontal';
  if (rect.height >= elongation * rect.width) return 'vertical';
  return 'unknown';
}

/** The upright frame of an axis, before the classifier's flip. */
export function baseOrientation(axis: Axis): Orientation {
  return axis === 'vertical' ? 90 : 0;
}

export function flipped(orientation: Orientation): Orientation {
  return ((orientation + 180) % 360) as Orientation;
}

/**
 * The index of the decided box nearest to `rect` (distance from its centre to the other
 * box's outline), if one lies within `reach` times the box's longer side.
 */
export function nearestDecided(
  rect: RotatedRect,
  decided: readonly { readonly rect: RotatedRect }[],
  reach: number,
): number | undefined {
  let best: number | undefined;
  let bestDistance = reach * Math.max(rect.width, rect.height);
  decided.forEach((other, index) => {
    const o = other.rect;
    const px = rect.cx - o.cx;
    const py = rect.cy - o.cy;
    const along = Math.max(0, Math.abs(px * o.ux + py * o.uy) - o.width / 2);
    const across = Math.max(0, Math.abs(-px * o.uy + py * o.ux) - o.height / 2);
    const distance = Math.hypot(along, across);
    if (distance <= bestDistance) {
      bestDistance = distance;
      best = index;
    }
  });
  return best;
}
