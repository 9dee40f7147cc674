/**
 * Where a QR code is, from its texture alone, for the symbols ZXing does not even locate: a
 * small, dense legacy XML QR in a phone photo (measured: a 100-px symbol at under two pixels
 * a module beside the large Secure QR, found by neither of ZXing's binarizers at any scale up
 * to 2x). A QR code is a solid square of cells whose pixels change sharply both along rows
 * and down columns (over one pixel or, in a blurred photo, two), about half of them dark; text,
 * photos and card backgrounds are sparse in such cells, lighter, or not square. A QR printed
 * against a paragraph or another symbol joins their shape; the square is then found inside it.
 * What this finds is only ever covered (fail closed), never decoded.
 */
import type { Quad } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';

/** Cell side in (possibly halved) pixels. */
const CELL = 8;
/** A neighbour this much lighter or darker is an edge. */
const EDGE = 35;
/** Share of a cell's pixels on an edge, along rows and down columns alike. */
const BUSY = 0.12;
/** Darkest to lightest in a cell: ink on paper, not noise. */
const CONTRAST = 80;
/** Smallest block, in cells, and how square and how full it must be. */
const MIN_CELLS = 6;
const MAX_ASPECT = 1.6;
const MIN_FILL = 0.8;
/** Range of a block's share of dark pixels in its busy cells. */
const QR_DARK = [0.4, 0.62] as const;
/** How full a square inside a larger shape must be. */
const SQUARE_FILL = 0.9;
/** Share of busy cells in the next row or column for such a square to grow into it. */
const GROW_BUSY = 0.7;
/** Images larger than this are examined at half resolution (their modules are larger too). */
const HALVE_ABOVE = 4_000_000;

function luminance(
  image: RasterImage,
  step: number,
): { grey: Uint8Array; width: number; height: number } {
  const width = Math.floor(image.width / step);
  const height = Math.floor(image.height / step);
  const grey = new Uint8Array(width * height);
  const { channels, pixels } = image;
  for (let y = 0; y < height; y += 1) {
    let at = y * step * image.width * channels;
    const row = y * width;
    for (let x = 0; x < width; x += 1, at += step * channels) {
      const r = pixels[at] as number;
      const g = pixels[at + 1] as number;
      const b = pixels[at + 2] as number;
      grey[row + x] = (r * 77 + g * 150 + b * 29) >> 8;
    }
  }
  return { grey, width, height };
}

/** The page's grid of cells: which are busy, and how many of a busy cell's pixels are dark. */
interface Cells {
  readonly busy: Uint8Array;
  readonly dark: Uint8Array;
  readonly cols: number;
  readonly rows: number;
}

function busyCells(grey: Uint8Array, width: number, height: number): Cells {
  const cols = Math.floor(width / CELL);
  const rows = Math.floor(height / CELL);
  const busy = new Uint8Array(cols * rows);
  const dark = new Uint8Array(cols * rows);
  const area = CELL * CELL;
  for (let cy = 0; cy < rows; cy += 1) {
    for (let cx = 0; cx < cols; cx += 1) {
      const x0 = cx * CELL;
      const y0 = cy * CELL;
      // Contrast first: most cells of a page are plain paper and need no edge count.
      let low = 255;
      let high = 0;
      for (let y = y0; y < y0 + CELL; y += 1) {
        const row = y * width;
        for (let x = x0; x < x0 + CELL; x += 1) {
          const g = grey[row + x] as number;
          if (g < low) low = g;
          if (g > high) high = g;
        }
      }
      if (high - low <= CONTRAST) continue;
      let along = 0;
      let down = 0;
      let darkPixels = 0;
      const mid = (low + high) / 2;
      for (let y = y0; y < y0 + CELL; y += 1) {
        const row = y * width;
        for (let x = x0; x < x0 + CELL; x += 1) {
          const g = grey[row + x] as number;
          if (g < mid) darkPixels += 1;
          // Two pixels on as well as one: a blurred photo spreads each module's edge over
          // two pixels, where neighbours differ by less than EDGE (measured on XML QRs).
          if (
            isEdge(grey, row + x, 1, g, x + 1 < width) ||
            isEdge(grey, row + x, 2, g, x + 2 < width)
          )
            along += 1;
          if (
            isEdge(grey, row + x, width, g, y + 1 < height) ||
            isEdge(grey, row + x, 2 * width, g, y + 2 < height)
          )
            down += 1;
        }
      }
      if (along > BUSY * area && down > BUSY * area) {
        busy[cy * cols + cx] = 1;
        dark[cy * cols + cx] = darkPixels;
      }
    }
  }
  return { busy, dark, cols, rows };
}

function isEdge(grey: Uint8Array, at: number, offset: number, g: number, inside: boolean): boolean {
  return inside && Math.abs((grey[at + offset] as number) - g) > EDGE;
}

/** A block of cells: [x0, y0] to [x1, y1] inclusive. */
interface Block {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/**
 * Axis-aligned quads, in the image's pixels, of square blocks of busy cells: connected blocks
 * that are square and full on their own, and square blocks inside larger shapes (a QR printed
 * against a paragraph or a fold line merges with it).
 */
export function findQrTexture(image: RasterImage): Quad[] {
  const step = image.width * image.height > HALVE_ABOVE ? 2 : 1;
  const { grey, width, height } = luminance(image, step);
  const cells = busyCells(grey, width, height);
  const k = CELL * step;
  return [...connectedBlocks(cells)].flatMap((component) => {
    const blocks = isSquareAndFull(cells, component)
      ? [component.bounds]
      : squaresWithin(cells, component);
    return blocks.map((b) => {
      const [left, top, right, bottom] = [b.x0 * k, b.y0 * k, (b.x1 + 1) * k, (b.y1 + 1) * k];
      return [
        { x: left, y: top },
        { x: right, y: top },
        { x: right, y: bottom },
        { x: left, y: bottom },
      ] as Quad;
    });
  });
}

interface Component {
  readonly bounds: Block;
  /** The component's cells, as indices into the grid. */
  readonly members: readonly number[];
}

/** The 4-connected blocks of busy cells. */
function* connectedBlocks({ busy, cols, rows }: Cells): Generator<Component> {
  const seen = new Uint8Array(cols * rows);
  const stack: number[] = [];
  const visit = (next: number): void => {
    if (busy[next] === 1 && seen[next] === 0) {
      seen[next] = 1;
      stack.push(next);
    }
  };
  for (let start = 0; start < busy.length; start += 1) {
    if (!busy[start] || seen[start]) continue;
    stack.push(start);
    seen[start] = 1;
    const members: number[] = [];
    let [x0, y0, x1, y1] = [cols, rows, 0, 0];
    while (stack.length > 0) {
      const cell = stack.pop() as number;
      const x = cell % cols;
      const y = (cell - x) / cols;
      members.push(cell);
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
      if (x + 1 < cols) visit(cell + 1);
      if (x > 0) visit(cell - 1);
      if (y + 1 < rows) visit(cell + cols);
      if (y > 0) visit(cell - cols);
    }
    if (members.length >= MIN_CELLS * MIN_CELLS) yield { bounds: { x0, y0, x1, y1 }, members };
  }
}

function isSquareAndFull({ dark }: Cells, { bounds, members }: Component): boolean {
  const [w, h] = [bounds.x1 - bounds.x0 + 1, bounds.y1 - bounds.y0 + 1];
  if (Math.min(w, h) < MIN_CELLS || Math.max(w, h) > MAX_ASPECT * Math.min(w, h)) return false;
  if (members.length < MIN_FILL * w * h) return false;
  return isQrDark(
    members.reduce((sum, cell) => sum + (dark[cell] as number), 0),
    members.length,
  );
}

/**
 * Whether busy cells are, on average, about half dark, as a QR's modules are. Text is busy too,
 * but its strokes darken a cell far less (measured: a busy text cell is 25% dark on average, a
 * QR cell 50%), so a block of small print does not pass for a QR.
 */
function isQrDark(darkPixels: number, busyCells: number): boolean {
  const share = darkPixels / (busyCells * CELL * CELL);
  return share >= QR_DARK[0] && share <= QR_DARK[1];
}

/**
 * Square blocks inside a component that is not square itself, largest first: nearly full of
 * busy cells, and as dark as a QR (isQrDark), so that a paragraph beside a QR is left out.
 */
function squaresWithin(cells: Cells, { bounds, members }: Component): Block[] {
  const { busy, dark, cols } = cells;
  const w = bounds.x1 - bounds.x0 + 1;
  const h = bounds.y1 - bounds.y0 + 1;
  const inBlock = new Uint8Array(w * h);
  for (const cell of members)
    inBlock[(Math.floor(cell / cols) - bounds.y0) * w + (cell % cols) - bounds.x0] = 1;
  const found: Block[] = [];
  for (;;) {
    // Summed areas over the cells not yet taken: counts of busy cells and of their dark pixels.
    const taken = (x: number, y: number) =>
      inBlock[y * w + x] === 1 && busy[(y + bounds.y0) * cols + x + bounds.x0] === 1;
    const count = summedArea(w, h, (x, y) => (taken(x, y) ? 1 : 0));
    const darkSum = summedArea(w, h, (x, y) =>
      taken(x, y) ? (dark[(y + bounds.y0) * cols + x + bounds.x0] as number) : 0,
    );
    const best = largestSquare(w, h, (x, y, side) => {
      const busyCells = count(x, y, side);
      if (busyCells < SQUARE_FILL * side * side) return -1;
      return isQrDark(darkSum(x, y, side), busyCells) ? busyCells : -1;
    });
    if (best === null) return found.map((block) => grown(block, cells, bounds));
    found.push({
      x0: best.x + bounds.x0,
      y0: best.y + bounds.y0,
      x1: best.x + bounds.x0 + best.side - 1,
      y1: best.y + bounds.y0 + best.side - 1,
    });
    for (let y = best.y; y < best.y + best.side; y += 1)
      inBlock.fill(0, y * w + best.x, y * w + best.x + best.side);
  }
}

/** A summed-area table of `value` over a w x h grid: the sum over any square in constant time. */
function summedArea(
  w: number,
  h: number,
  value: (x: number, y: number) => number,
): (x: number, y: number, side: number) => number {
  const table = new Float64Array((w + 1) * (h + 1));
  const at = (x: number, y: number) => table[y * (w + 1) + x] as number;
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      table[(y + 1) * (w + 1) + x + 1] = value(x, y) + at(x, y + 1) + at(x + 1, y) - at(x, y);
    }
  }
  return (x, y, side) => at(x + side, y + side) - at(x, y + side) - at(x + side, y) + at(x, y);
}

/**
 * A square found inside a larger shape, grown by up to a quarter of its side on each side while
 * the next row or column is mostly busy and QR-dark: two QRs printed edge to edge share a shape, and the
 * square taken first leaves the other one short of its own edge.
 */
function grown(block: Block, { busy, dark, cols }: Cells, limit: Block): Block {
  const reach = Math.floor((block.x1 - block.x0 + 1) / 4);
  // The next row or column: mostly busy, and as dark as a QR (not the text printed beside it).
  const qrLike = (x0: number, y0: number, x1: number, y1: number) => {
    let on = 0;
    let darkPixels = 0;
    for (let y = y0; y <= y1; y += 1) {
      for (let x = x0; x <= x1; x += 1) {
        on += busy[y * cols + x] as number;
        darkPixels += dark[y * cols + x] as number;
      }
    }
    return on >= GROW_BUSY * (x1 - x0 + 1) * (y1 - y0 + 1) && isQrDark(darkPixels, on);
  };
  let { x0, y0, x1, y1 } = block;
  for (let i = 0; i < reach && x0 > limit.x0 && qrLike(x0 - 1, y0, x0 - 1, y1); i += 1) x0 -= 1;
  for (let i = 0; i < reach && x1 < limit.x1 && qrLike(x1 + 1, y0, x1 + 1, y1); i += 1) x1 += 1;
  for (let i = 0; i < reach && y0 > limit.y0 && qrLike(x0, y0 - 1, x1, y0 - 1); i += 1) y0 -= 1;
  for (let i = 0; i < reach && y1 < limit.y1 && qrLike(x0, y1 + 1, x1, y1 + 1); i += 1) y1 += 1;
  return { x0, y0, x1, y1 };
}

/** The largest square that `score` accepts (a score of 0 or more), the highest score among equals. */
function largestSquare(
  w: number,
  h: number,
  score: (x: number, y: number, side: number) => number,
): { x: number; y: number; side: number } | null {
  for (let side = Math.min(w, h); side >= MIN_CELLS; side -= 1) {
    let best: { x: number; y: number; side: number } | null = null;
    let bestScore = -1;
    for (let y = 0; y + side <= h; y += 1) {
      for (let x = 0; x + side <= w; x += 1) {
        const s = score(x, y, side);
        if (s > bestScore) [best, bestScore] = [{ x, y, side }, s];
      }
    }
    if (best) return best;
  }
  return null;
}
