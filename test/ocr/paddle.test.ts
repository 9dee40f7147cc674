import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPaddleOcr, type PaddleOcr } from '../../src/ocr/index.js';
import { frameOfQuad, type Orientation, type Point } from '../../src/domain/geometry.js';
import type { RasterImage } from '../../src/domain/raster.js';
import type { PageText, TextLine } from '../../src/domain/text-layer.js';
import { mupdf } from '../../src/documents/mupdf.js';
import { renderPdfPage } from '../../src/documents/render.js';
import { pdfWithLines } from '../helpers/fixtures.js';
import { drawCard, Page, type DrawnText } from './fixtures.js';

const DIRECTION: Record<Orientation, Point> = {
  0: { x: 1, y: 0 },
  90: { x: 0, y: 1 },
  180: { x: -1, y: 0 },
  270: { x: 0, y: -1 },
};

function centre(quad: readonly Point[]): Point {
  return {
    x: quad.reduce((s, p) => s + p.x, 0) / quad.length,
    y: quad.reduce((s, p) => s + p.y, 0) / quad.length,
  };
}

/** The line reading `text`; of several, the one nearest `near`. */
function lineOf(page: PageText, text: string, near: Point = { x: 0, y: 0 }): TextLine {
  const distance = (l: TextLine): number => {
    const c = centre(l.quad);
    return Math.hypot(c.x - near.x, c.y - near.y);
  };
  const line = page.lines
    .filter((l) => l.text === text)
    .sort((p, q) => distance(p) - distance(q))[0];
  assert.ok(
    line,
    `no line reads ${JSON.stringify(text)}; got ${JSON.stringify(page.lines.map((l) => l.text))}`,
  );
  return line;
}

/**
 * The line reads as drawn, in the drawn orientation, with corners in reading order, and each
 * character's quad centred on its glyph's advance box: within `along` font sizes in the
 * reading direction, within half a font size across it.
 */
function assertReadAsDrawn(page: PageText, drawn: DrawnText, along = 0.25): void {
  const line = lineOf(page, drawn.text, centre(drawn.centres));
  assert.equal(line.orientation, drawn.orientation, `orientation of ${drawn.text}`);
  assert.equal(line.chars.length, drawn.centres.length);
  const r = DIRECTION[drawn.orientation];
  const [a, b] = line.quad;
  const top = { x: b.x - a.x, y: b.y - a.y };
  assert.ok(
    (top.x * r.x + top.y * r.y) / Math.hypot(top.x, top.y) > 0.99,
    'quad corners in reading order',
  );
  line.chars.forEach((char, i) => {
    const expected = drawn.centres[i] as Point;
    const got = centre(char.quad);
    const dx = got.x - expected.x;
    const dy = got.y - expected.y;
    const alongError = Math.abs(dx * r.x + dy * r.y);
    const acrossError = Math.abs(-dx * r.y + dy * r.x);
    assert.ok(
      alongError <= along * drawn.size,
      `char ${i} of ${drawn.text}: ${alongError.toFixed(1)} px off along the line`,
    );
    assert.ok(
      acrossError <= 0.5 * drawn.size,
      `char ${i} of ${drawn.text}: ${acrossError.toFixed(1)} px off across`,
    );
    assert.ok(char.confidence > 0 && char.confidence <= 1);
  });
}

function withoutAlpha(image: RasterImage): RasterImage {
  const rgb = Buffer.alloc(image.width * image.height * 3);
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
    rgb[i] = image.pixels[j] ?? 0;
    rgb[i + 1] = image.pixels[j + 1] ?? 0;
    rgb[i + 2] = image.pixels[j + 2] ?? 0;
  }
  return { width: image.width, height: image.height, channels: 3, pixels: rgb };
}

describe('PaddleOcr', () => {
  let engine: PaddleOcr;
  before(async () => {
    engine = await createPaddleOcr();
  });
  after(async () => {
    await engine.close();
  });

  const upright = new Page(900, 260);
  const drawnUpright = [
    upright.text('2345 6789 0124', 40, 70, { size: 40, bold: true }),
    upright.text('PAN ABCDE1234F issued 12/05/2015', 40, 140, { size: 28 }),
    upright.text('Name: Test Example', 40, 210, { size: 26 }),
  ];

  it('reads a digit line and mixed words, each character where it was drawn', async () => {
    const page = await engine.read(upright.raster(), 3);
    for (const drawn of drawnUpright) assertReadAsDrawn(page, drawn);
    assert.equal(page.page, 3);
    assert.equal(page.unit, 'px');
    assert.equal(page.source, 'ocr');
    assert.equal(page.width, 900);
    assert.equal(page.height, 260);
    for (const line of page.lines) {
      assert.equal(line.text, line.chars.map((c) => c.text).join(''));
      assert.ok(line.confidence > 0.5 && line.confidence <= 1);
    }
  });

  it('reads RGB pixels as it reads RGBA', async () => {
    const page = await engine.read(withoutAlpha(upright.raster()), 0);
    for (const drawn of drawnUpright) assertReadAsDrawn(page, drawn);
  });

  const turned = new Page(1000, 1000);
  const drawnTurned = [
    turned.text('Upright 2345 6789 0124', 200, 80, { size: 34 }),
    turned.text('Down the page ABCDE1234F', 920, 200, { size: 34 }, 90),
    turned.text('Upside down 9100 2345', 800, 900, { size: 34 }, 180),
    turned.text('Up the page 01/01/1990', 80, 800, { size: 34 }, 270),
    // Too short for its box's shape to tell its axis: it reads as its neighbour does.
    turned.text('M', 920, 760, { size: 34 }, 90),
  ];

  it('reads text turned 90, 180 and 270 degrees in its own orientation, in one pass', async () => {
    const { text, timings } = await engine.readWithTimings(turned.raster(), 0);
    for (const d of drawnTurned) assertReadAsDrawn(text, d);
    // One detection pass; each line recognised once (no line needed both flips here).
    assert.equal(timings.recognitionRuns, timings.boxes);
  });

  it('reads known lines again in their own orientation, with no detection pass', async () => {
    const raster = turned.raster();
    const first = await engine.read(raster, 0);
    const lines = drawnTurned.map((d) => lineOf(first, d.text));
    const frames = lines.map((l) => frameOfQuad(l.quad, l.orientation));
    const again = await engine.readWithTimings(raster, 0, 'text', { lines: frames });
    // One line per frame, in their order, where the first reading put it.
    const seen = (l: TextLine) => [
      l.text,
      l.orientation,
      ...l.quad.flatMap((p) => [Math.round(p.x * 100) / 100, Math.round(p.y * 100) / 100]),
    ];
    assert.deepEqual(again.text.lines.map(seen), lines.map(seen));
    assert.equal(again.timings.boxes, 0);
    assert.equal(again.timings.detection, 0);
    assert.equal(again.timings.recognitionRuns, drawnTurned.length);
    // The same frames over blank pixels read nothing at all.
    const blank = new Page(1000, 1000).raster();
    const nothing = await engine.read(blank, 0, 'text', { lines: frames });
    assert.deepEqual(
      nothing.lines.map((l) => l.text),
      drawnTurned.map(() => ''),
    );
  });

  it('reads a page of scattered marks without reading each four ways, and finds no text in it', async () => {
    const marks = new Page(1200, 1200);
    for (let i = 0; i < 400; i += 1) {
      marks.rect(20 + ((i * 97) % 1150), 20 + ((i * 61) % 1150), 9, 9, '#111111');
    }
    const { text, timings } = await engine.readWithTimings(marks.raster(), 0);
    assert.ok(timings.boxes > 100, `${timings.boxes} marks detected`);
    // Each near-square mark read four ways was 1,304 runs for 390 boxes; now the 16 largest are,
    // none reads clearly as a letter or digit, and the rest are left.
    assert.ok(
      timings.recognitionRuns < timings.boxes,
      `${timings.recognitionRuns} runs for ${timings.boxes} boxes`,
    );
    const words = text.lines.filter((l) => /[\p{L}\p{N}]{2}/u.test(l.text));
    assert.deepEqual(
      words.map((l) => l.text),
      [],
    );
  });

  it('still reads every character standing apart when more than sixteen do', async () => {
    const page = new Page(1400, 1000);
    const chars = Array.from('ABDEGHKMNPRSTUX23568');
    const drawn = chars.map((char, i) =>
      page.text(char, 60 + (i % 6) * 230, 120 + Math.floor(i / 6) * 230, { size: 44 }),
    );
    const { text, timings } = await engine.readWithTimings(page.raster(), 0);
    const read = new Set(text.lines.map((l) => l.text));
    const missed = drawn.filter((d) => !read.has(d.text)).map((d) => d.text);
    // A lone character is ambiguous four ways (a T turned, a 6 upside down): reading each four
    // ways missed a T and a 6 here; at most one may be missed.
    assert.ok(missed.length <= 1, `missed ${missed.join(' ')}; read ${[...read].join(' ')}`);
    // No box has a line beside it: the 16 largest were read four ways, the others once.
    assert.ok(timings.boxes > 16 && timings.boxes <= chars.length, `${timings.boxes} boxes`);
    assert.equal(timings.recognitionRuns, 16 * 4 + (timings.boxes - 16));
  });

  it('reads a printout of two cards, one turned a quarter', async () => {
    const printout = new Page(1500, 1000);
    const first = drawCard(printout, { x: 40, y: 40, scale: 0.8, devanagari: false });
    const second = drawCard(printout, {
      x: 1440,
      y: 100,
      scale: 0.8,
      orientation: 90,
      devanagari: false,
    });
    const page = await engine.read(printout.raster(), 0);
    for (const drawn of [...first, ...second]) assertReadAsDrawn(page, drawn);
  });

  it('reads a small card on an A4 page scanned at 300 dpi, in page pixels', async () => {
    const a4 = new Page(2480, 3508);
    const card = drawCard(a4, { x: 1200, y: 2400, scale: 1.011, devanagari: false });
    const page = await engine.read(a4.raster(), 0);
    assert.equal(page.width, 2480);
    assert.equal(page.height, 3508);
    for (const drawn of card) assertReadAsDrawn(page, drawn);
  });

  it('joins the groups of a number that the detector split', async () => {
    const spaced = new Page(700, 120);
    const size = 40;
    spaced.ctx.font = `700 ${size}px "Noto Sans"`;
    const advance = (s: string): number => spaced.ctx.measureText(s).width;
    // Groups 1.2 font sizes apart: the detector boxes them separately.
    let x = 30;
    const groups = ['2345', '6789', '0124'].map((group) => {
      const drawn = spaced.text(group, x, 80, { size, bold: true });
      spaced.ctx.font = `700 ${size}px "Noto Sans"`;
      x += advance(group) + 1.2 * size;
      return drawn;
    });
    const { text, timings } = await engine.readWithTimings(spaced.raster(), 0);
    assert.equal(timings.boxes, 3);
    const line = lineOf(text, '2345 6789 0124');
    const digits = line.chars.filter((c) => c.text !== ' ');
    const drawnCentres = groups.flatMap((g) => g.centres);
    digits.forEach((char, i) => {
      const expected = drawnCentres[i] as Point;
      assert.ok(Math.abs(centre(char.quad).x - expected.x) <= 0.25 * size, `digit ${i}`);
    });
    // The inserted spaces lie in the gaps.
    const spaces = line.chars.filter((c) => c.text === ' ');
    assert.equal(spaces.length, 2);
    const gapStart = (groups[0]?.advances.at(-1)?.[1].x ?? 0) - 2;
    const gapEnd = (groups[1]?.advances[0]?.[0].x ?? 0) + 2;
    assert.ok(
      centre(spaces[0]?.quad ?? []).x > gapStart && centre(spaces[0]?.quad ?? []).x < gapEnd,
    );
  });

  it('reads every long line of a 200 dpi letter upright (squeezed whole, they looked upside down)', async () => {
    // The page where a line was lost: 40 lines, every fourth-and-tenth one holding identifiers.
    const texts = Array.from({ length: 40 }, (_, i) =>
      i % 10 === 3
        ? `Customer 1-${i}: PAN ACUPA7085R, mobile +91 98765 43210, mail priya.sharma@example.in`
        : i % 10 === 7
          ? `GSTIN 27AAPFU0939F1ZV, IFSC SBIN0000691, Aadhaar 4918 7362 5102, invoice 1${i}0042`
          : `Line ${i} of page 1: the terms and conditions of the account continue here as plain prose.`,
    );
    const pdf = mupdf.Document.openDocument(
      pdfWithLines([texts.map((text, i) => ({ text, x: 50, y: 800 - i * 18, size: 10 }))]),
      'application/pdf',
    ).asPDF();
    assert.ok(pdf);
    const read = await engine.read(renderPdfPage(pdf, 0, 200), 0, 'text');
    pdf.destroy();
    const identifiers = read.lines.filter((l) => /ACUPA7085R|27AAPFU0939F1ZV/.test(l.text));
    assert.equal(identifiers.length, 8, JSON.stringify(read.lines.map((l) => l.text)));
    for (const l of identifiers) assert.equal(l.orientation, 0);
  });

  it('refuses a buffer shorter than the image says, and reads nothing once closed', async () => {
    await assert.rejects(
      engine.read({ width: 100, height: 100, channels: 3, pixels: Buffer.alloc(10) }, 0),
      /shorter/,
    );
    await engine.close();
    await assert.rejects(engine.read(upright.raster(), 0), /closed/);
  });
});
