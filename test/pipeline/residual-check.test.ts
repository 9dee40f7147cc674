import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { holdsAadhaarNumber } from '../../src/identifiers/in/aadhaar.js';
import type { Orientation, Quad } from '../../src/domain/geometry.js';
import type { RasterImage } from '../../src/domain/raster.js';
import type { PageText, TextLine } from '../../src/domain/text-layer.js';
import type { OcrEngine, ReadHints, ReadPurpose } from '../../src/ocr/types.js';
import { readableTargets, type ReadFor } from '../../src/pipeline/residual-check.js';
import { Rng } from '../fixtures/aadhaar/random.js';
import { groupDigits, randomAadhaar, randomVid } from '../fixtures/aadhaar/verhoeff.js';

const box = (x0: number, y0: number, x1: number, y1: number): Quad => [
  { x: x0, y: y0 },
  { x: x1, y: y0 },
  { x: x1, y: y1 },
  { x: x0, y: y1 },
];

const page: RasterImage = {
  width: 400,
  height: 200,
  channels: 3,
  pixels: Buffer.alloc(400 * 200 * 3, 255),
};

/** What the engine was asked to read: the image's size and the hints. */
interface Call {
  readonly width: number;
  readonly height: number;
  readonly hints: ReadHints | undefined;
}

/**
 * An engine that reads the given lines, at the given boxes of the crop, whatever it is shown;
 * `calls` records what it was shown.
 */
function engineReading(
  lines: readonly { text: string; quad: Quad }[],
  calls: Call[] = [],
): OcrEngine {
  return {
    read: (
      image: RasterImage,
      pageIndex: number,
      _purpose?: ReadPurpose,
      hints?: ReadHints,
    ): Promise<PageText> => {
      calls.push({ width: image.width, height: image.height, hints });
      return Promise.resolve({
        page: pageIndex,
        width: image.width,
        height: image.height,
        unit: 'px',
        source: 'ocr',
        lines: lines.map((l) => ({
          text: l.text,
          quad: l.quad,
          chars: [],
          confidence: 0.99,
          orientation: 0,
        })),
      });
    },
  } as unknown as OcrEngine;
}

/** A line of the first reading at `quad` (corners in reading order). */
const firstLine = (quad: Quad, orientation: Orientation = 0): TextLine => ({
  text: '',
  chars: [],
  quad,
  confidence: 0.99,
  orientation,
});

const digits = (text: string) => text.replace(/\D/g, '');
const NUMBERS: ReadFor = { normalise: digits, purpose: 'numbers' };

describe('holdsAadhaarNumber', () => {
  const rng = new Rng(11);
  it('finds a valid number in 4-4-4 groups or unbroken, and not inside a VID', () => {
    const number = randomAadhaar(rng);
    assert.equal(holdsAadhaarNumber(`Aadhaar ${groupDigits(number)}`), true);
    assert.equal(holdsAadhaarNumber(`no.${number}.`), true);
    const broken = `${number.slice(0, 11)}${(Number(number[11]) + 1) % 10}`;
    assert.equal(holdsAadhaarNumber(groupDigits(broken)), false);
    const vid = randomVid(rng);
    for (let k = 0; k < 20; k += 1) {
      assert.equal(holdsAadhaarNumber(`VID : ${groupDigits(randomVid(rng))}`), false);
    }
    assert.equal(holdsAadhaarNumber(groupDigits(vid)), false);
  });
});

describe('readableTargets', () => {
  const target = { quads: [box(100, 80, 220, 110)], hidden: ['23456789'] };
  // The crop starts half the region's height (15 px) before it and is enlarged 1.25x.
  const overCover = box(10, 10, 200, 50);
  const besideCover = box(10, 120, 200, 150);
  const rng = new Rng(5);

  it('counts the covered characters read again', async () => {
    const ocr = engineReading([{ text: '2345 6789 1234', quad: overCover }]);
    assert.deepEqual(await readableTargets(page, [target], ocr, 0, NUMBERS), [0]);
  });

  it('counts a new valid number on a line crossing the cover, not on a line beside it', async () => {
    const fresh = groupDigits(randomAadhaar(rng));
    const over = engineReading([{ text: fresh, quad: overCover }]);
    const beside = engineReading([{ text: fresh, quad: besideCover }]);
    const appears = holdsAadhaarNumber;
    assert.deepEqual(await readableTargets(page, [target], over, 0, NUMBERS), []);
    assert.deepEqual(await readableTargets(page, [target], over, 0, { ...NUMBERS, appears }), [0]);
    assert.deepEqual(await readableTargets(page, [target], beside, 0, { ...NUMBERS, appears }), []);
  });

  it("reads again the stretch of the first reading's line under the cover, on the page itself", async () => {
    const calls: Call[] = [];
    const ocr = engineReading([{ text: '2345 6789 1234', quad: box(80, 76, 300, 114) }], calls);
    const lines = [firstLine(box(90, 78, 290, 112)), firstLine(box(10, 150, 200, 190))];
    assert.deepEqual(await readableTargets(page, [target], ocr, 0, NUMBERS, lines), [0]);
    assert.equal(calls.length, 1);
    const [call] = calls;
    // The whole page, not a crop; only the stretch of the line under the cover, half the line's
    // thickness (34 px) longer at either end, and a tenth thicker on either side.
    assert.deepEqual([call?.width, call?.height], [400, 200]);
    const [frame, ...others] = call?.hints?.lines ?? [];
    assert.equal(others.length, 0);
    assert.ok(frame);
    assert.deepEqual(
      [frame.ox, frame.oy, frame.length, frame.thickness, frame.orientation].map((v) =>
        Number(v.toFixed(1)),
      ),
      [83, 74.6, 154, 40.8, 0],
    );
    assert.deepEqual([frame.rx, frame.ry, frame.dx, frame.dy], [1, 0, -0, 1]);
  });

  it('keeps a line read upside down in its own orientation', async () => {
    const calls: Call[] = [];
    // Read turned 180 degrees: the line's first corner is the page's bottom right.
    const turned: Quad = [
      { x: 290, y: 112 },
      { x: 90, y: 112 },
      { x: 90, y: 78 },
      { x: 290, y: 78 },
    ];
    const ocr = engineReading([{ text: '', quad: turned }], calls);
    assert.deepEqual(
      await readableTargets(page, [target], ocr, 0, NUMBERS, [firstLine(turned, 180)]),
      [],
    );
    const frame = calls[0]?.hints?.lines?.[0];
    assert.ok(frame);
    assert.equal(frame.orientation, 180);
    assert.deepEqual([frame.rx, frame.dy], [-1, -1]);
  });

  it('fails when the engine does not read back one line per known line', async () => {
    const ocr = engineReading([]);
    const lines = [firstLine(box(90, 78, 290, 112))];
    await assert.rejects(readableTargets(page, [target], ocr, 0, NUMBERS, lines), {
      message: 'The OCR engine did not read back one line per known line.',
    });
  });

  it("reads the region afresh when a cover lies on none of the first reading's lines", async () => {
    const calls: Call[] = [];
    const ocr = engineReading([{ text: '2345 6789 1234', quad: overCover }], calls);
    // A line beside the cover, and one that holds only its first half.
    const lines = [firstLine(box(10, 150, 200, 190)), firstLine(box(95, 78, 150, 112))];
    assert.deepEqual(await readableTargets(page, [target], ocr, 0, NUMBERS, lines), [0]);
    assert.equal(calls.length, 1);
    // The crop: the cover with 15 px around it, enlarged 1.25 times; read in every orientation.
    assert.deepEqual([calls[0]?.width, calls[0]?.height], [188, 75]);
    assert.equal(calls[0]?.hints?.lines, undefined);
  });
});
