/**
 * Plane geometry for text boxes: convex hull, minimum-area rectangle, and the reading frame that
 * maps crop coordinates to page coordinates. Hand-written because sharp has no equivalent of
 * OpenCV's minAreaRect; the inputs are a few hundred points per box, so plain loops suffice.
 *
 * Page coordinates: x right, y down, (0,0) the top-left corner of the top-left pixel (pixel
 * centres sit at +0.5).
 */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/**
 * Four corners in reading order: top-left, top-right, bottom-right, bottom-left *of the text as
 * read*. For text rotated on the page the corners rotate with it: for text running top to
 * bottom (orientation 90) the "top-left" corner is the page's top-right of the glyph box.
 */
export type Quad = readonly [Point, Point, Point, Point];

/** Clockwise rotation of the text on the page: 0 upright, 90 reads top to bottom, 180 upside down, 270 reads bottom to top. */
export type Orientation = 0 | 90 | 180 | 270;

/** A rectangle at any angle: `u` runs along its width, `v` (u turned 90 degrees clockwise on screen) along its height. */
export interface RotatedRect {
  readonly cx: number;
  readonly cy: number;
  readonly ux: number;
  readonly uy: number;
  readonly width: number;
  readonly height: number;
}

/** Andrew's monotone chain; points given as a flat [x0, y0, x1, y1, ...] array. Returns a counter-clockwise hull (in y-up terms). */
export function convexHull(coords: ArrayLike<number>): Point[] {
  const points: Point[] = [];
  for (let i = 0; i + 1 < coords.length; i += 2) {
    points.push({ x: coords[i] ?? 0, y: coords[i + 1] ?? 0 });
  }
  points.sort((a, b) => a.x - b.x || a.y - b.y);
  if (points.length < 3) return points;
  const cross = (o: Point, a: Point, b: Point): number =>
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: Point[] = [];
  for (const p of points) {
    while (lower.length >= 2 && cross(lower.at(-2) as Point, lower.at(-1) as Point, p) <= 0) {
      lower.pop();
    }
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = points.length - 1; i >= 0; i -= 1) {
    const p = points[i] as Point;
    while (upper.length >= 2 && cross(upper.at(-2) as Point, upper.at(-1) as Point, p) <= 0) {
      upper.pop();
    }
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return lower.concat(upper);
}

/**
 * Minimum-area enclosing rectangle of a convex hull (one edge of the optimum lies on a hull edge).
 * The result's `u` is chosen within 45 degrees of the x axis, so width is the more horizontal side.
 */
export function minAreaRect(hull: readonly Point[]): RotatedRect {
  if (hull.length === 0) return { cx: 0, cy: 0, ux: 1, uy: 0, width: 0, height: 0 };
  let best: RotatedRect | undefined;
  let bestArea = Infinity;
  const n = hull.length;
  const edges = n <= 2 ? 1 : n;
  for (let i = 0; i < edges; i += 1) {
    const a = hull[i] as Point;
    const b = hull[(i + 1) % n] as Point;
    let ex = b.x - a.x;
    let ey = b.y - a.y;
    const len = Math.hypot(ex, ey);
    if (len === 0) {
      ex = 1;
      ey = 0;
    } else {
      ex /= len;
      ey /= len;
    }
    let minU = Infinity;
    let maxU = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const p of hull) {
      const pu = p.x * ex + p.y * ey;
      const pv = -p.x * ey + p.y * ex;
      if (pu < minU) minU = pu;
      if (pu > maxU) maxU = pu;
      if (pv < minV) minV = pv;
      if (pv > maxV) maxV = pv;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const mu = (minU + maxU) / 2;
      const mv = (minV + maxV) / 2;
      best = {
        cx: mu * ex - mv * ey,
        cy: mu * ey + mv * ex,
        ux: ex,
        uy: ey,
        width: maxU - minU,
        height: maxV - minV,
      };
    }
  }
  return normaliseRect(best as RotatedRect);
}

/** Turns the rectangle's axes so that `u` lies within 45 degrees of +x (same rectangle). */
export function normaliseRect(rect: RotatedRect): RotatedRect {
  let { ux, uy, width, height } = rect;
  // Rotate u by 90 degrees until its angle is in (-45, 45]; width and height swap on each turn.
  for (let turns = 0; turns < 4 && !(ux > 0 && uy > -ux && uy <= ux); turns += 1) {
    [ux, uy] = [-uy, ux];
    [width, height] = [height, width];
  }
  return { cx: rect.cx, cy: rect.cy, ux, uy, width, height };
}

/** The rectangle grown by `distance` on every side (PP-OCR's "unclip" of a box, which is Clipper's polygon offset; for a rectangle the offset's minimum-area rectangle is exactly this). */
export function growRect(rect: RotatedRect, distance: number): RotatedRect {
  return { ...rect, width: rect.width + 2 * distance, height: rect.height + 2 * distance };
}

/** Corners in page order: the one at -u-v, +u-v, +u+v, -u+v. */
export function rectCorners(rect: RotatedRect): Quad {
  const { cx, cy, ux, uy } = rect;
  const vx = -uy;
  const vy = ux;
  const hw = rect.width / 2;
  const hh = rect.height / 2;
  return [
    { x: cx - hw * ux - hh * vx, y: cy - hw * uy - hh * vy },
    { x: cx + hw * ux - hh * vx, y: cy + hw * uy - hh * vy },
    { x: cx + hw * ux + hh * vx, y: cy + hw * uy + hh * vy },
    { x: cx - hw * ux + hh * vx, y: cy - hw * uy + hh * vy },
  ];
}

/** Scales a rectangle by independent x and y factors (detection map to page) and re-fits it. */
export function scaleRect(rect: RotatedRect, sx: number, sy: number): RotatedRect {
  // Under anisotropic scaling a rectangle becomes a parallelogram; with sx close to sy (the
  // detector rounds sides to multiples of 32) the re-fitted rectangle is within a pixel of it.
  const ax = rect.ux * sx;
  const ay = rect.uy * sy;
  const alen = Math.hypot(ax, ay) || 1;
  const ux = ax / alen;
  const uy = ay / alen;
  const bx = -rect.uy * sx;
  const by = rect.ux * sy;
  return normaliseRect({
    cx: rect.cx * sx,
    cy: rect.cy * sy,
    ux,
    uy,
    width: rect.width * alen,
    // Height is measured perpendicular to the new u.
    height: rect.height * Math.abs(-bx * uy + by * ux),
  });
}

/**
 * Where a line's text sits on the page, as read: `origin` is the top-left of the text as read,
 * `r` the unit reading direction, `d` the unit "down" direction of the glyphs, `length` the
 * extent along r and `thickness` along d (page pixels).
 */
export interface ReadingFrame {
  readonly ox: number;
  readonly oy: number;
  readonly rx: number;
  readonly ry: number;
  readonly dx: number;
  readonly dy: number;
  readonly length: number;
  readonly thickness: number;
  readonly orientation: Orientation;
}

/** Turns (x, y) clockwise on screen (y down) by `quarterTurns` * 90 degrees. */
function turn(x: number, y: number, quarterTurns: number): [number, number] {
  let a = x;
  let b = y;
  for (let i = 0; i < quarterTurns % 4; i += 1) [a, b] = [-b, a];
  return [a, b];
}

/** The frame in which `rect` reads as text rotated clockwise by `orientation` on the page. */
export function readingFrame(rect: RotatedRect, orientation: Orientation): ReadingFrame {
  const q = orientation / 90;
  const [rx, ry] = turn(rect.ux, rect.uy, q);
  const [dx, dy] = turn(-rect.uy, rect.ux, q);
  const vertical = q % 2 === 1;
  const length = vertical ? rect.height : rect.width;
  const thickness = vertical ? rect.width : rect.height;
  return {
    ox: rect.cx - (length / 2) * rx - (thickness / 2) * dx,
    oy: rect.cy - (length / 2) * ry - (thickness / 2) * dy,
    rx,
    ry,
    dx,
    dy,
    length,
    thickness,
    orientation,
  };
}

/** The page point at `along` pixels in the reading direction and `down` pixels down the glyphs. */
export function framePoint(frame: ReadingFrame, along: number, down: number): Point {
  return {
    x: frame.ox + along * frame.rx + down * frame.dx,
    y: frame.oy + along * frame.ry + down * frame.dy,
  };
}

/** The quad covering [from, to] along the frame and its whole thickness, corners in reading order. */
export function frameQuad(frame: ReadingFrame, from: number, to: number): Quad {
  return [
    framePoint(frame, from, 0),
    framePoint(frame, to, 0),
    framePoint(frame, to, frame.thickness),
    framePoint(frame, from, frame.thickness),
  ];
}

/** Coordinates of a page point in the frame: distance along the reading direction and down. */
export function toFrame(frame: ReadingFrame, p: Point): { along: number; down: number } {
  const px = p.x - frame.ox;
  const py = p.y - frame.oy;
  return { along: px * frame.rx + py * frame.ry, down: px * frame.dx + py * frame.dy };
}

/** The frame of a quad given in reading order (top-left, top-right, bottom-right, bottom-left). */
export function frameOfQuad(quad: Quad, orientation: Orientation): ReadingFrame {
  const [tl, tr, , bl] = quad;
  const length = Math.hypot(tr.x - tl.x, tr.y - tl.y);
  const thickness = Math.hypot(bl.x - tl.x, bl.y - tl.y);
  const rx = length > 0 ? (tr.x - tl.x) / length : 1;
  const ry = length > 0 ? (tr.y - tl.y) / length : 0;
  return { ox: tl.x, oy: tl.y, rx, ry, dx: -ry, dy: rx, length, thickness, orientation };
}
