/**
 * Synthetic OCR inputs drawn at test time with @napi-rs/canvas and the Noto fonts of the
 * @fontsource packages (never system fonts, never real people's data). Every drawn string
 * keeps its ground truth: where each glyph's advance lies on the page.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas, GlobalFonts, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { Orientation, Point } from '../../src/domain/geometry.js';
import type { RasterImage } from '../../src/domain/raster.js';

const require = createRequire(import.meta.url);
let registered = false;

/** Registers "Noto Sans" (Latin) and "Noto Sans Devanagari" from the installed npm packages. */
export function registerFonts(): void {
  if (registered) return;
  const latin = path.dirname(require.resolve('@fontsource/noto-sans/package.json'));
  const deva = path.dirname(require.resolve('@fontsource/noto-sans-devanagari/package.json'));
  for (const weight of ['400', '700']) {
    GlobalFonts.registerFromPath(
      path.join(latin, 'files', `noto-sans-latin-${weight}-normal.woff2`),
      'Noto Sans',
    );
    GlobalFonts.registerFromPath(
      path.join(deva, 'files', `noto-sans-devanagari-devanagari-${weight}-normal.woff2`),
      'Noto Sans Devanagari',
    );
  }
  registered = true;
}

/** A drawn string and, per character, the page points its advance box runs between. */
export interface DrawnText {
  readonly text: string;
  readonly orientation: Orientation;
  readonly size: number;
  /** Centre of each character's advance box (at half the cap height), in page pixels. */
  readonly centres: readonly Point[];
  /** Start and end of each character's advance along the reading direction, in page pixels. */
  readonly advances: readonly (readonly [Point, Point])[];
}

export interface TextStyle {
  readonly size: number;
  readonly bold?: boolean;
  readonly family?: string;
  readonly colour?: string;
}

/** A page to draw on; strings are placed by their baseline's start, at a quarter turn. */
export class Page {
  readonly canvas: Canvas;
  readonly ctx: SKRSContext2D;
  readonly drawn: DrawnText[] = [];

  constructor(
    readonly width: number,
    readonly height: number,
    background = '#ffffff',
  ) {
    registerFonts();
    this.canvas = createCanvas(width, height);
    this.ctx = this.canvas.getContext('2d');
    this.ctx.fillStyle = background;
    this.ctx.fillRect(0, 0, width, height);
  }

  /** Fills a rectangle (a card's background, a photo placeholder). */
  rect(x: number, y: number, width: number, height: number, colour: string): void {
    this.ctx.fillStyle = colour;
    this.ctx.fillRect(x, y, width, height);
  }

  /**
   * Draws `text` with its baseline starting at (x, y), turned clockwise by `orientation`
   * about that point, and records the ground truth.
   */
  text(
    text: string,
    x: number,
    y: number,
    style: TextStyle,
    orientation: Orientation = 0,
  ): DrawnText {
    const { ctx } = this;
    const family = style.family ?? 'Noto Sans';
    ctx.save();
    ctx.font = `${style.bold === true ? '700' : '400'} ${style.size}px "${family}"`;
    ctx.fillStyle = style.colour ?? '#111111';
    ctx.textBaseline = 'alphabetic';
    ctx.translate(x, y);
    ctx.rotate((orientation * Math.PI) / 180);
    ctx.fillText(text, 0, 0);
    const chars = Array.from(text);
    const edges = chars.map((_, i) => ctx.measureText(chars.slice(0, i).join('')).width);
    edges.push(ctx.measureText(text).width);
    const capHeight = ctx.measureText('H').actualBoundingBoxAscent;
    ctx.restore();
    const angle = (orientation * Math.PI) / 180;
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const page = (along: number, up: number): Point => ({
      x: x + along * cos + up * sin,
      y: y + along * sin - up * cos,
    });
    const advances = chars.map(
      (_, i) =>
        [page(edges[i] ?? 0, capHeight / 2), page(edges[i + 1] ?? 0, capHeight / 2)] as const,
    );
    const drawn: DrawnText = {
      text,
      orientation,
      size: style.size,
      centres: advances.map(([a, b]) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 })),
      advances,
    };
    this.drawn.push(drawn);
    return drawn;
  }

  raster(): RasterImage {
    const data = this.ctx.getImageData(0, 0, this.width, this.height).data;
    return {
      width: this.width,
      height: this.height,
      channels: 4,
      pixels: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
    };
  }
}

/** One line of a synthetic card, in the card's own coordinates (baseline start, before turning). */
interface CardLine {
  readonly text: string;
  readonly x: number;
  readonly y: number;
  readonly size: number;
  readonly bold?: boolean;
  readonly family?: string;
}

/** The Latin lines of a made-up identity card, 1000 x 640 units; nothing here is a real person. */
export const CARD_LINES: readonly CardLine[] = [
  { text: 'Government of India', x: 330, y: 70, size: 34, bold: true },
  { text: 'Test Name Example', x: 330, y: 200, size: 30 },
  { text: 'DOB: 01/01/1990', x: 330, y: 250, size: 28 },
  { text: 'Gender: Female', x: 330, y: 300, size: 28 },
  { text: 'Mobile: 98765 43210', x: 330, y: 350, size: 26 },
  { text: '2345 6789 0124', x: 300, y: 470, size: 48, bold: true },
  { text: 'VID: 9100 2345 6789 0123', x: 300, y: 520, size: 24 },
  { text: 'Address: 12 Sample Road, Test Nagar', x: 40, y: 575, size: 22 },
  { text: 'Example District - 560001', x: 40, y: 610, size: 22 },
  { text: 'Issue Date: 12/05/2015', x: 700, y: 250, size: 22 },
  { text: 'PAN ABCDE1234F', x: 700, y: 300, size: 24, bold: true },
  { text: 'help@example.org', x: 700, y: 350, size: 22 },
];

/** Lines in Devanagari, drawn for realism: the Chinese/Latin recogniser does not read them. */
const CARD_DEVANAGARI: readonly CardLine[] = [
  { text: 'भारत सरकार', x: 330, y: 120, size: 30, family: 'Noto Sans Devanagari' },
  { text: 'परीक्षण नाम', x: 330, y: 160, size: 26, family: 'Noto Sans Devanagari' },
  { text: 'मेरा आधार, मेरी पहचान', x: 560, y: 420, size: 24, family: 'Noto Sans Devanagari' },
];

export interface CardPlacement {
  /** Page position of the card's top-left corner as the card reads. */
  readonly x: number;
  readonly y: number;
  /** Page pixels per card unit. */
  readonly scale: number;
  readonly orientation?: Orientation;
  /** Draw the Devanagari lines too (they come back as unreadable lines). */
  readonly devanagari?: boolean;
}

/** Draws the card and returns its Latin lines' ground truth, in CARD_LINES order. */
export function drawCard(page: Page, placement: CardPlacement): DrawnText[] {
  const { x, y, scale } = placement;
  const orientation = placement.orientation ?? 0;
  const angle = (orientation * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const at = (u: number, v: number): Point => ({
    x: x + scale * (u * cos - v * sin),
    y: y + scale * (u * sin + v * cos),
  });
  const { ctx } = page;
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(angle);
  ctx.fillStyle = '#f3efe2';
  ctx.fillRect(0, 0, 1000 * scale, 640 * scale);
  ctx.fillStyle = '#d8a25a';
  ctx.fillRect(0, 0, 1000 * scale, 16 * scale);
  // A photo placeholder.
  ctx.fillStyle = '#9aa3ad';
  ctx.fillRect(40 * scale, 140 * scale, 240 * scale, 290 * scale);
  ctx.restore();
  const extra = placement.devanagari === false ? [] : CARD_DEVANAGARI;
  for (const line of extra) {
    const p = at(line.x, line.y);
    page.text(line.text, p.x, p.y, { size: line.size * scale, family: line.family }, orientation);
  }
  return CARD_LINES.map((line) => {
    const p = at(line.x, line.y);
    return page.text(
      line.text,
      p.x,
      p.y,
      { size: line.size * scale, bold: line.bold === true },
      orientation,
    );
  });
}
