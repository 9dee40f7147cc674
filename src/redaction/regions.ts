/**
 * What a page's covers add up to: one region per value, however often it was read. A page may
 * be read twice (its PDF text layer and OCR of its pixels, or two orientations), and each
 * reading finds the same value again; the region count is what the response headers report
 * (X-Masked-Count, X-Redacted-Count), so those readings must come to one region, while two
 * values whose covers merely touch, on neighbouring lines, stay two.
 */
import type { Quad } from '../domain/geometry.js';
import { boundsOf, boxArea, overlapArea } from './geometry.js';

export interface Region {
  /** The covers of every reading of the value (padded), in the page's units. */
  readonly quads: Quad[];
  /** Each reading's own extent (no margin), by which another reading is recognised. */
  readonly cores: Quad[];
  /** Every reading of it failed validation (counted apart: X-Unverified-Count). */
  unverified: boolean;
  /** The characters it hides, normalised: what a second reading of the output must not find. */
  readonly hidden: string[];
}

/**
 * Two extents are one value read twice when they share more than this much of the smaller
 * one's box. Extents have no margin: readings of one value overlap by most of their area, and
 * the values of neighbouring lines not at all, so the figure only has to stay clear of both.
 */
const SAME_VALUE_SHARE = 0.3;

function sameValue(a: Quad, b: Quad): boolean {
  const p = boundsOf(a);
  const q = boundsOf(b);
  const shared = overlapArea(p, q);
  return shared > 0 && shared > SAME_VALUE_SHARE * Math.min(boxArea(p), boxArea(q));
}

export interface Reading {
  readonly cores: readonly Quad[];
  readonly quads: readonly Quad[];
  readonly unverified?: boolean;
  readonly hidden?: string;
}

/** Adds one reading: to the region of the value it reads again, or as a region of its own. */
export function addRegion(regions: Region[], reading: Reading): void {
  const { cores, quads, unverified = false, hidden } = reading;
  const existing = regions.find((r) => r.cores.some((c) => cores.some((n) => sameValue(c, n))));
  if (existing) {
    existing.quads.push(...quads);
    existing.cores.push(...cores);
    existing.unverified &&= unverified;
    if (hidden) existing.hidden.push(hidden);
    return;
  }
  regions.push({
    quads: [...quads],
    cores: [...cores],
    unverified,
    hidden: hidden ? [hidden] : [],
  });
}
