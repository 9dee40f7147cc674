/**
 * A PAN whose two equal letters the recogniser merged ("JJ" read as "J") is read again from its
 * line, stretched, and taken only when that reading is the nine characters with one doubled.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { loadSettings } from '../../src/config/settings.js';
import type { OcrEngine, PageText, RasterImage } from '../../src/ocr/types.js';
import { serviceContext } from '../../src/services/context.js';
import { extractPanFile } from '../../src/services/extract-pan.js';
import { line, page } from '../helpers/text-layer.js';

/** Reads the card's lines first; every later reading (of a crop) reads `again`. */
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
    read: (image: RasterImage) => {
      calls += 1;
      if (calls === 1)
        return Promise.resolve({ ...card, width: image.width, height: image.height });
      crops.push(image);
      return Promise.resolve(page([line(again, { x: 5, y: 5 })]));
    },
  } as unknown as OcrEngine;
}

async function extract(again: string, crops: RasterImage[] = []) {
  const bytes = await sharp({
    create: { width: 600, height: 320, channels: 3, background: '#fff' },
  })
    .png()
    .toBuffer();
  const context = serviceContext(loadSettings({}), () =>
    Promise.resolve(engine(again, crops) as never),
  );
  return extractPanFile(context, { bytes, filename: 'pan.png' }, false);
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
});
