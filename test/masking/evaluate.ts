/**
 * Scores a masking result against a generated document's ground truth, geometrically: each
 * digit's quad is sampled on a grid and a sample counts as covered when it lies inside one of
 * the regions the service covered on that page.
 */
import type { GeneratedDocument, PageTruth, Quad } from '../fixtures/aadhaar/index.js';
import type { MaskResult } from '../../src/services/mask-aadhaar.js';
import { insideQuad } from '../../src/redaction/geometry.js';

/** A masked digit must be covered on at least this share of its glyph box. */
export const COVERED = 0.9;
/** A last-four digit covered on more than this share counts as hidden: a failure. */
export const TOUCHED = 0.2;

export interface DocumentScore {
  readonly id: string;
  readonly kind: string;
  /** Printed Aadhaar numbers (each occurrence). */
  readonly numbers: number;
  /** Of those, the ones whose first eight digits are all covered. */
  readonly numbersCovered: number;
  /**
   * Printed 4-4-4 numbers that fail the check digit on a card (near misses): covered all the
   * same, and counted apart by the service.
   */
  readonly unverified: number;
  readonly unverifiedCovered: number;
  /** Last-four digits covered beyond TOUCHED. */
  readonly lastFourHidden: number;
  readonly xmlQrs: number;
  readonly xmlQrsCovered: number;
  /** Covered regions that overlap no number and no QR code: false masks. */
  readonly falseRegions: number;
  /**
   * Digits of the text around the numbers (a VID line, dates, phones, other decoys) covered
   * beyond TOUCHED: a cover that ate into its neighbours.
   */
  readonly neighboursTouched: number;
  readonly maskedCount: number;
  /** What the service counted as covered without a valid check digit. */
  readonly unverifiedCount: number;
}

function samples(quad: Quad, steps = 6): { x: number; y: number }[] {
  const [tl, tr, br, bl] = quad;
  const points: { x: number; y: number }[] = [];
  for (let i = 0; i < steps; i += 1) {
    for (let j = 0; j < steps; j += 1) {
      const u = (i + 0.5) / steps;
      const v = (j + 0.5) / steps;
      const top = { x: tl.x + (tr.x - tl.x) * u, y: tl.y + (tr.y - tl.y) * u };
      const bottom = { x: bl.x + (br.x - bl.x) * u, y: bl.y + (br.y - bl.y) * u };
      points.push({ x: top.x + (bottom.x - top.x) * v, y: top.y + (bottom.y - top.y) * v });
    }
  }
  return points;
}

export function coveredShare(target: Quad, regions: readonly Quad[]): number {
  const points = samples(target);
  const inside = points.filter((p) => regions.some((r) => insideQuad(r, p.x, p.y))).length;
  return inside / points.length;
}

function overlapsAny(region: Quad, targets: readonly Quad[]): boolean {
  return samples(region, 8).some((p) => targets.some((t) => insideQuad(t, p.x, p.y)));
}

/** A near-miss number printed in 4-4-4 groups: on a card, a number to cover unverified. */
export const unverifiedNumbers = (page: PageTruth) =>
  page.decoys.filter((d) => d.kind === 'near-miss' && /^\d{4} \d{4} \d{4}$/.test(d.text));

function pageTargets(page: PageTruth): Quad[] {
  return [
    ...[...page.aadhaar, ...unverifiedNumbers(page)].flatMap((n) => n.digits.slice(0, 8)),
    ...page.qrs.map((q) => q.quad),
  ];
}

export function scoreMask(doc: GeneratedDocument, result: MaskResult): DocumentScore {
  let numbers = 0;
  let numbersCovered = 0;
  let unverified = 0;
  let unverifiedCovered = 0;
  let lastFourHidden = 0;
  let xmlQrs = 0;
  let xmlQrsCovered = 0;
  let falseRegions = 0;
  let neighboursTouched = 0;
  for (const page of doc.truth.pages) {
    const regions = result.regions.find((r) => r.page === page.index)?.quads ?? [];
    for (const number of page.aadhaar) {
      numbers += 1;
      const firstEight = number.digits.slice(0, 8);
      if (firstEight.every((d) => coveredShare(d, regions) >= COVERED)) numbersCovered += 1;
      lastFourHidden += number.digits
        .slice(8)
        .filter((d) => coveredShare(d, regions) > TOUCHED).length;
    }
    for (const number of unverifiedNumbers(page)) {
      unverified += 1;
      const firstEight = number.digits.slice(0, 8);
      if (firstEight.every((d) => coveredShare(d, regions) >= COVERED)) unverifiedCovered += 1;
      lastFourHidden += number.digits
        .slice(8)
        .filter((d) => coveredShare(d, regions) > TOUCHED).length;
    }
    for (const qr of page.qrs.filter((q) => q.kind === 'xml')) {
      xmlQrs += 1;
      if (coveredShare(qr.quad, regions) >= 0.98) xmlQrsCovered += 1;
    }
    const targets = pageTargets(page);
    falseRegions += regions.filter((r) => !overlapsAny(r, targets)).length;
    const covered = new Set(unverifiedNumbers(page));
    const neighbours = [
      ...page.vids.flatMap((v) => v.digits),
      ...page.decoys.filter((d) => !covered.has(d)).flatMap((d) => d.digits),
    ];
    neighboursTouched += neighbours.filter((d) => coveredShare(d, regions) > TOUCHED).length;
  }
  return {
    id: doc.id,
    kind: doc.kind,
    numbers,
    numbersCovered,
    unverified,
    unverifiedCovered,
    lastFourHidden,
    xmlQrs,
    xmlQrsCovered,
    falseRegions,
    neighboursTouched,
    maskedCount: result.maskedCount,
    unverifiedCount: result.unverifiedCount,
  };
}

export interface CorpusSummary {
  readonly documents: number;
  readonly numbers: number;
  readonly numbersCovered: number;
  readonly coverageRate: number;
  readonly unverified: number;
  readonly unverifiedCovered: number;
  /** Documents whose unverified count is not the number of near misses covered. */
  readonly unverifiedMiscounted: number;
  readonly lastFourHidden: number;
  readonly xmlQrs: number;
  readonly xmlQrsCovered: number;
  readonly falseRegions: number;
  readonly neighboursTouched: number;
  readonly negatives: number;
  readonly negativesMasked: number;
}

export function summarise(scores: readonly DocumentScore[]): CorpusSummary {
  const sum = (f: (s: DocumentScore) => number) => scores.reduce((total, s) => total + f(s), 0);
  const negatives = scores.filter((s) => s.kind.startsWith('negative'));
  const numbers = sum((s) => s.numbers);
  return {
    documents: scores.length,
    numbers,
    numbersCovered: sum((s) => s.numbersCovered),
    coverageRate: numbers === 0 ? 1 : sum((s) => s.numbersCovered) / numbers,
    unverified: sum((s) => s.unverified),
    unverifiedCovered: sum((s) => s.unverifiedCovered),
    unverifiedMiscounted: scores.filter((s) => s.unverifiedCount !== s.unverifiedCovered).length,
    lastFourHidden: sum((s) => s.lastFourHidden),
    xmlQrs: sum((s) => s.xmlQrs),
    xmlQrsCovered: sum((s) => s.xmlQrsCovered),
    falseRegions: sum((s) => s.falseRegions),
    neighboursTouched: sum((s) => s.neighboursTouched),
    negatives: negatives.length,
    negativesMasked: negatives.filter((s) => s.maskedCount > 0).length,
  };
}
