/**
 * How finely a QR symbol was imaged, in pixels per module, so that a customer whose photo is too
 * coarse can be told to take it again. A decoded symbol knows its version (17 + 4v modules a
 * side); for a symbol that did not decode, the module is measured on its finder patterns, which
 * are 7 modules across and large enough to survive the blur that defeats the data modules.
 */
import type { Point, Quad } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';

/**
 * The least resolution at which Parda decodes dense Secure QRs reliably (measured on
 * generated photographs and scans: bench/verify.ts and the verification corpus test).
 */
export const MIN_PIXELS_PER_MODULE = 2.5;

const distance = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);

function meanSide(quad: Quad): number {
  const [a, b, c, d] = quad;
  return (distance(a, b) + distance(b, c) + distance(c, d) + distance(d, a)) / 4;
}

/** Modules per side of a QR symbol of this version (1-40). */
export function modulesOf(version: number): number {
  return 17 + 4 * version;
}

function greyAt(image: RasterImage, x: number, y: number): number | null {
  const [px, py] = [Math.round(x), Math.round(y)];
  if (px < 0 || py < 0 || px >= image.width || py >= image.height) return null;
  const at = (py * image.width + px) * image.channels;
  const { pixels } = image;
  if (image.channels < 3) return pixels[at] ?? null;
  return ((pixels[at] ?? 0) * 77 + (pixels[at + 1] ?? 0) * 150 + (pixels[at + 2] ?? 0) * 29) >> 8;
}

/**
 * Along the diagonal from a symbol's corner towards its centre, the finder pattern reads
 * dark, light, dark, light, dark in the ratio 1:1:3:1:1 (7 modules, times the square root of two
 * along a diagonal). Returns the module size in pixels, or null when the runs do not fit.
 */
function finderModule(image: RasterImage, corner: Point, centre: Point): number | null {
  const length = distance(corner, centre);
  if (length < 8) return null;
  const [ux, uy] = [(centre.x - corner.x) / length, (centre.y - corner.y) / length];
  // Start a little outside the corner: a located corner may sit inside the finder's edge.
  const start = -0.08 * length;
  const samples: number[] = [];
  for (let t = start; t <= 0.6 * length; t += 0.5) {
    const g = greyAt(image, corner.x + ux * t, corner.y + uy * t);
    if (g !== null) samples.push(g);
  }
  if (samples.length < 16) return null;
  const threshold = (Math.min(...samples) + Math.max(...samples)) / 2;
  const runs: number[] = [];
  let dark = false;
  let run = 0;
  for (const g of samples) {
    const isDark = g < threshold;
    if (runs.length === 0 && !dark && !isDark) continue; // quiet zone before the finder
    if (isDark === dark) run += 1;
    else {
      if (run > 0) runs.push(run);
      dark = isDark;
      run = 1;
    }
    if (runs.length === 5) break;
  }
  if (runs.length < 5) return null;
  const [r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0] = runs;
  const unit = (r1 + r2 + r4 + r5) / 4;
  if (unit <= 0 || r3 < 1.8 * unit || r3 > 4.5 * unit) return null;
  // Half-pixel samples along a diagonal: 7 modules are 7 * sqrt(2) module sides long.
  return ((r1 + r2 + r3 + r4 + r5) * 0.5) / (7 * Math.SQRT2);
}

/**
 * Pixels per module of the symbol at `quad` (top-left, top-right, bottom-right, bottom-left);
 * `modules` (per side) when the symbol decoded. Null when it cannot be measured.
 */
export function pixelsPerModule(
  image: RasterImage,
  quad: Quad,
  modules: number | null,
): number | null {
  if (modules !== null && modules >= modulesOf(1)) return meanSide(quad) / modules;
  const centre = {
    x: quad.reduce((s, p) => s + p.x, 0) / 4,
    y: quad.reduce((s, p) => s + p.y, 0) / 4,
  };
  // The three corners that hold a finder pattern (the bottom-right one does not), whichever
  // way the symbol is turned: keep the readings that fit the pattern and take their median.
  const readings = quad
    .map((corner) => finderModule(image, corner, centre))
    .filter((m): m is number => m !== null)
    .sort((a, b) => a - b);
  if (readings.length < 2) return null;
  return readings[Math.floor((readings.length - 1) / 2)] ?? null;
}
