/**
 * The re-read before a masked output leaves (mask-document.ts, redaction/residual-check.ts),
 * tested with faults injected between the apply and write steps: a cover that was never drawn
 * fails the request; one drawn only on the second try is widened and passes.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import sharp from 'sharp';
import { loadSettings } from '../../src/config/settings.js';
import { INDIAN_FORMATS } from '../../src/documents/document.js';
import { DocumentError } from '../../src/domain/errors.js';
import { boundsOf } from '../../src/redaction/geometry.js';
import { coverQuads } from '../../src/redaction/raster.js';
import { serviceContext, withDocument } from '../../src/services/context.js';
import { closeEngines } from '../../src/services/engines.js';
import { AADHAAR_TARGET } from '../../src/services/mask-aadhaar.js';
import { maskDocument, type Cover, type MaskResult } from '../../src/services/mask-document.js';
import { blackShare, simpleCard } from '../helpers/cards.js';

const context = serviceContext(loadSettings({}));
const OPTIONS = { outputFormat: 'same', maskQr: 'xml', pdfDpi: 300, residualCheck: true } as const;

async function maskWith(bytes: Buffer, cover: Cover): Promise<MaskResult> {
  const ocr = await context.ocr();
  return withDocument(context, { bytes, filename: 'card.png' }, INDIAN_FORMATS, (document) =>
    maskDocument(document, AADHAAR_TARGET, OPTIONS, ocr, cover),
  );
}

describe('masking re-reads its output before it leaves', () => {
  after(closeEngines);

  it('fails the request when a cover is missing from the output', async () => {
    const card = await simpleCard({ number: '2345 6789 0124' });
    const removed: Cover = (image) => image; // the fault: covers computed, never drawn
    await assert.rejects(
      maskWith(card.bytes, removed),
      (error: unknown) => error instanceof DocumentError && error.code === 'residual_check_failed',
    );
  });

  it('skips the re-read when it is turned off, and says so', async () => {
    const card = await simpleCard({ number: '2345 6789 0124' });
    const ocr = await context.ocr();
    const result = await withDocument(
      context,
      { bytes: card.bytes, filename: 'card.png' },
      INDIAN_FORMATS,
      (document) =>
        maskDocument(document, AADHAAR_TARGET, { ...OPTIONS, residualCheck: false }, ocr),
    );
    assert.equal(result.maskedCount, 1);
    assert.equal(result.residualCheck, 'skipped');
  });

  it('widens a cover that still reads, checks again, and returns the widened cover', async () => {
    const card = await simpleCard({ number: '2345 6789 0124' });
    let calls = 0;
    const secondTime: Cover = (image, quads) => (++calls === 1 ? image : coverQuads(image, quads));
    const result = await maskWith(card.bytes, secondTime);
    assert.equal(calls, 2);
    assert.equal(result.residualCheck, 'passed');
    const plain = await maskWith(card.bytes, coverQuads);
    const height = (r: MaskResult) => {
      const b = boundsOf(
        r.regions[0]?.quads[0] ?? [
          { x: 0, y: 0 },
          { x: 0, y: 0 },
          { x: 0, y: 0 },
          { x: 0, y: 0 },
        ],
      );
      return b.y1 - b.y0;
    };
    assert.ok(height(result) > height(plain), 'the cover was widened');
    // The first eight digits are black in the output, the last four are not.
    const { data, info } = await sharp(result.bytes)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    card.digits.forEach((box, i) => {
      const share = blackShare(data, info.width, info.channels, box);
      if (i < 8) assert.ok(share > 0.97, `digit ${i + 1} covered`);
      else assert.ok(share < 0.7, `digit ${i + 1} visible`);
    });
  });
});
