import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectionInput } from '../../src/ocr/detection-input.js';

describe('detector input', () => {
  it('puts blue, green and red in the network channels, normalised as PaddleOCR trained it', async () => {
    // A flat colour survives the resize unchanged: every detector pixel holds the same values.
    const [r, g, b] = [10, 128, 250];
    const pixels = Buffer.alloc(96 * 64 * 3);
    for (let i = 0; i < pixels.length; i += 3) pixels.set([r, g, b], i);
    const image = { width: 96, height: 64, channels: 3 as const, pixels };
    const input = await detectionInput(image, { left: 0, top: 0, width: 96, height: 64 }, 0.5);
    assert.deepEqual([input.width, input.height, input.scaleX, input.scaleY], [64, 32, 1.5, 2]);
    const plane = input.width * input.height;
    const expected = [
      (b / 255 - 0.485) / 0.229,
      (g / 255 - 0.456) / 0.224,
      (r / 255 - 0.406) / 0.225,
    ];
    for (let c = 0; c < 3; c += 1) {
      for (const i of [0, plane >> 1, plane - 1]) {
        const value = input.data[c * plane + i] as number;
        assert.ok(Math.abs(value - (expected[c] as number)) < 1e-5, `channel ${c}: ${value}`);
      }
    }
  });
});
