/**
 * A PAN whose two equal letters the recogniser merged ("JJ" read as "J") is read again from its
 * line, stretched, and taken only when that reading is the nine characters with one doubled.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { loadSettings } from '../../src/config/settings.js';
import type { RasterImage } from '../../src/domain/raster.js';
import type { PageText } from '../../src/domain/text-layer.js';
import type { OcrEngine, ReadHints, ReadPurpose } from '../../src/ocr/types.js';
import { serviceContext } from '../../src/services/context.js';
import { extractPanFile } from '../../src/services/extract-pan.js';
import { maskPanFile } from '../../src/services/mask-pan.js';
import { boundsOf } from '../../src/redaction/geometry.js';
import { line, page, readingNothing } from '../helpers/text-layer.js';

/**
 * Reads the card's lines first; the next reading (of a crop) reads `again`, where the stretched
 * crop shows the PAN line (x 10-208, y 230-260 on the card; the crop starts at x 0, y 215 and
 * is 2.2 times as wide), and any later one (masking's re-read of its covers) reads nothing.
 */
function engine(again: string, crops: RasterImage[]): OcrEngine {
  const card: PageText = page([
    line('INCOME TAX DEPARTMENT', { y: 20 }),
    line('VIJAY VERMA', { y: 70 }),
    line('ASHOK VERMA', { y: 110 }),
    line('17/02/1994', { y: 150 }),
    line('Permanent Account Number', { y: 190 }),
    line('JGPV4846E', { y: 230, charWidth: 22, height: 30 }),
  ]);
  let calls = 0;
  return {
    read: (image: RasterImage, _page: number, _purpose?: ReadPurpose, hints?: ReadHints) => {
      calls += 1;
      if (calls === 1)
        return Promise.resolve({ ...card, width: image.width, height: image.height });
      if (calls > 2) return Promise.resolve(readingNothing(hints));
      crops.push(image);
      return Promise.resolve(page([line(again, { x: 22, y: 15, charWidth: 43.56, height: 30 })]));
    },
  } as unknown as OcrEngine;
}

const card = () =>
  sharp({ create: { width: 600, height: 320, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();

const contextFor = (again: string, crops: RasterImage[]) =>
  serviceContext(loadSettings({}), () => Promise.resolve(engine(again, crops) as never));

async function extract(again: string, crops: RasterImage[] = []) {
  const upload = { bytes: await card(), filename: 'pan.png' };
  return extractPanFile(contextFor(again, crops), upload, false);
}

async function mask(again: string) {
  const upload = { bytes: await card(), filename: 'pan.png' };
  return maskPanFile(contextFor(again, []), upload, { outputFormat: 'same', maskQr: 'xml' });
}

describe('PAN extraction: a repeated letter merged by the recogniser', () => {
  it('reads the line again, stretched, and takes the PAN with the letter doubled', async () => {
    const crops: RasterImage[] = [];
    const result = await extract('JJGPV4846E', crops);
    assert.equal(result.fields.pan, 'JJGPV4846E');
    assert.ok(!result.warnings.includes('pan_not_found'));
    // One crop: the PAN line (9 x 22 px wide, 30 high, half a line around), 2.2 times as wide.
    assert.equal(crops.length, 1);
    const [crop] = crops;
    assert.ok(crop && crop.width / crop.height > (2.2 * (198 + 30)) / (30 + 30) - 0.5);
  });

  it('takes nothing the second reading invents: only the nine characters with one doubled', async () => {
    const result = await extract('ABCPV1234K');
    assert.equal(result.fields.pan, null);
    assert.ok(result.warnings.includes('pan_not_found'));
  });

  it('masking covers the middle seven of the PAN read again, mapped back onto the card', async () => {
    const result = await mask('JJGPV4846E');
    assert.equal(result.maskedCount, 1);
    const quads = result.regions.flatMap((r) => r.quads);
    assert.equal(quads.length, 1, 'one cover: no suspect word covered whole beside it');
    const cover = boundsOf(quads[0] as never);
    // On the card the PAN's ten characters are 19.8 px wide from x 10: J J | G P V 4 8 4 6 | E.
    const charStart = (i: number) => 10 + 19.8 * i;
    assert.ok(cover.x0 >= charStart(2) - 4 && cover.x0 <= charStart(2) + 1, `left ${cover.x0}`);
    assert.ok(cover.x1 >= charStart(9) - 1 && cover.x1 <= charStart(9) + 4, `right ${cover.x1}`);
    assert.ok(cover.y0 <= 231 && cover.y1 >= 259, `height ${cover.y0}-${cover.y1}`);
  });

  it('masking without a second reading covers the nine-character word whole (fail closed)', async () => {
    const result = await mask('ABCPV1234K');
    const cover = boundsOf(result.regions.flatMap((r) => r.quads)[0] as never);
    assert.ok(cover.x0 <= 10 && cover.x1 >= 208, `${cover.x0}-${cover.x1}`);
  });
});
