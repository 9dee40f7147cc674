import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { loadSettings } from '../../src/config/settings.js';
import { mupdf } from '../../src/documents/mupdf.js';
import { GLOBAL_RULES } from '../../src/identifiers/catalogue.js';
import type { Mode } from '../../src/redaction/operators/types.js';
import { serviceContext } from '../../src/services/context.js';
import { closeEngines } from '../../src/services/engines.js';
import { redactGlobalFile } from '../../src/services/redact-global.js';
import { cssFont, font, registerFonts } from '../fixtures/aadhaar/text.js';
import { pdfWithLines } from '../helpers/fixtures.js';

const WIDTH = 1100;
const HEIGHT = 420;
const SIZE = 30;
const BEFORE = 'Pay to IBAN ';
const VALUE = 'GB82 WEST 1234 5698 7654 32';
const ORIGIN = { x: 80, y: 200 };

interface Drawn {
  readonly png: Buffer;
  /** The line's direction and the direction from its top to its bottom. */
  readonly along: { x: number; y: number };
  readonly down: { x: number; y: number };
  /** Where the word before the value ends, along the line from ORIGIN, in pixels. */
  readonly wordTo: number;
  /** Where the value starts and ends along the line. */
  readonly valueFrom: number;
  readonly valueTo: number;
}

/** A line holding an IBAN between two words, at `degrees`, in a 30 px sans. */
async function line(degrees: number): Promise<Drawn> {
  registerFonts();
  const canvas = createCanvas(WIDTH, HEIGHT);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, WIDTH, HEIGHT);
  g.fillStyle = '#000';
  g.font = cssFont(font('latin', SIZE));
  const wordTo = g.measureText(BEFORE.trimEnd()).width;
  const valueFrom = g.measureText(BEFORE).width;
  const valueTo = valueFrom + g.measureText(VALUE).width;
  g.translate(ORIGIN.x, ORIGIN.y);
  g.rotate((degrees * Math.PI) / 180);
  g.fillText(`${BEFORE}${VALUE} by Friday`, 0, 0);
  const a = (degrees * Math.PI) / 180;
  return {
    png: await canvas.encode('png'),
    along: { x: Math.cos(a), y: Math.sin(a) },
    down: { x: -Math.sin(a), y: Math.cos(a) },
    wordTo,
    valueFrom,
    valueTo,
  };
}

async function pixels(png: Buffer): Promise<Buffer> {
  return sharp(png).removeAlpha().raw().toBuffer();
}

/**
 * The ink (dark pixels) between `from` and `to` along the line, within a line's height of it,
 * as its extent across the line: [top, bottom] offsets from the baseline (down is positive).
 */
function inkAcross(
  image: Buffer,
  drawn: Drawn,
  from: number,
  to: number,
): { top: number; bottom: number; count: number } {
  let [top, bottom, count] = [Infinity, -Infinity, 0];
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < WIDTH; x += 1) {
      if ((image[(y * WIDTH + x) * 3] as number) > 100) continue;
      const [dx, dy] = [x + 0.5 - ORIGIN.x, y + 0.5 - ORIGIN.y];
      const u = dx * drawn.along.x + dy * drawn.along.y;
      const v = dx * drawn.down.x + dy * drawn.down.y;
      if (u < from || u > to || Math.abs(v) > 1.5 * SIZE) continue;
      [top, bottom, count] = [Math.min(top, v), Math.max(bottom, v), count + 1];
    }
  }
  return { top, bottom, count };
}

/** Pixels that differ between the two images at most `to` along the line (the words before). */
function changedBefore(a: Buffer, b: Buffer, drawn: Drawn, to: number): number {
  let changed = 0;
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < WIDTH; x += 1) {
      const [dx, dy] = [x + 0.5 - ORIGIN.x, y + 0.5 - ORIGIN.y];
      const u = dx * drawn.along.x + dy * drawn.along.y;
      if (u > to) continue;
      const at = (y * WIDTH + x) * 3;
      if (a[at] !== b[at] || a[at + 1] !== b[at + 1] || a[at + 2] !== b[at + 2]) changed += 1;
    }
  }
  return changed;
}

describe('global redaction of an image: the drawn replacement and the words beside it', () => {
  const context = serviceContext(loadSettings({}));
  after(closeEngines);
  const redact = async (png: Buffer, mode: Mode) => {
    const result = await redactGlobalFile(
      context,
      { bytes: png, filename: 'line.png' },
      {
        rules: GLOBAL_RULES.filter((r) => r.type === 'IBAN'),
        countries: [],
        mode,
        maskKeep: 4,
        stripMetadata: true,
      },
    );
    assert.equal(result.entitiesFound, 1);
    return result.bytes;
  };

  for (const degrees of [0, 10]) {
    it(`draws a pseudonym on the value's baseline, at its size and angle (${degrees}°)`, async () => {
      const drawn = await line(degrees);
      const input = await pixels(drawn.png);
      const output = await pixels(await redact(drawn.png, 'pseudonym'));
      const original = inkAcross(input, drawn, drawn.valueFrom, drawn.valueTo);
      const replaced = inkAcross(output, drawn, drawn.valueFrom, drawn.valueTo);
      assert.ok(replaced.count > 0.3 * original.count, 'the replacement is drawn');
      // Capitals and digits on both sides: same baseline and height, within a few pixels.
      const height = original.bottom - original.top;
      assert.ok(
        Math.abs(replaced.bottom - original.bottom) <= 0.15 * height,
        `baseline: ${replaced.bottom.toFixed(1)} for ${original.bottom.toFixed(1)}`,
      );
      assert.ok(
        Math.abs(replaced.top - original.top) <= 0.2 * height,
        `top: ${replaced.top.toFixed(1)} for ${original.top.toFixed(1)}`,
      );
    });
  }

  it("writes a PDF's replacement text at the replaced text's size and on its baseline", async () => {
    const bytes = pdfWithLines([[{ text: `${BEFORE}${VALUE} by Friday.`, x: 72, y: 760 }]]);
    /** Size and baseline of each character of the page's text. */
    const glyphs = (pdf: Buffer) => {
      const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
      const page = doc.loadPage(0);
      const text = page.toStructuredText('preserve-whitespace');
      const out: { c: string; size: number; baseline: number }[] = [];
      text.walk({
        onChar(c, origin, _font, size) {
          out.push({ c, size, baseline: origin[1] });
        },
      });
      text.destroy();
      page.destroy();
      doc.destroy();
      return out;
    };
    const [first] = glyphs(bytes);
    assert.ok(first);
    const drawn = glyphs(await redact(bytes, 'pseudonym')).filter((g) => /[0-9]/.test(g.c));
    assert.ok(drawn.length >= 16, 'the pseudonym is text');
    for (const g of drawn) {
      assert.ok(Math.abs(g.size - first.size) <= 0.06 * first.size, `size ${g.size}`);
      assert.ok(Math.abs(g.baseline - first.baseline) <= 0.5, `baseline ${g.baseline}`);
    }
  });

  it('leaves every pixel of the words before the value as it was, in every drawing mode', async () => {
    const drawn = await line(0);
    const input = await pixels(drawn.png);
    for (const mode of ['box', 'mask', 'token', 'pseudonym'] as const) {
      const output = await pixels(await redact(drawn.png, mode));
      // Up to the last pixel column of the word's ink, and one beyond.
      assert.equal(changedBefore(input, output, drawn, drawn.wordTo + 1), 0, mode);
    }
  });
});
