import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boxesFromMap } from '../../src/ocr/detect.js';
import { DEFAULT_DETECTION } from '../../src/ocr/options.js';

/** A probability map with one filled rectangle, turned by `angle` about its centre. */
function map(
  width: number,
  height: number,
  rect: { cx: number; cy: number; w: number; h: number; angle: number },
): Float32Array {
  const data = new Float32Array(width * height);
  const cos = Math.cos(rect.angle);
  const sin = Math.sin(rect.angle);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const px = x + 0.5 - rect.cx;
      const py = y + 0.5 - rect.cy;
      const u = px * cos + py * sin;
      const v = -px * sin + py * cos;
      if (Math.abs(u) <= rect.w / 2 && Math.abs(v) <= rect.h / 2) data[y * width + x] = 0.9;
    }
  }
  return data;
}

describe('DB post-processing', () => {
  it('finds a turned text kernel and grows it by the unclip offset', () => {
    const probability = map(200, 120, { cx: 100, cy: 60, w: 120, h: 16, angle: 0.2 });
    const boxes = boxesFromMap(probability, 200, 120, DEFAULT_DETECTION);
    assert.equal(boxes.length, 1);
    const box = boxes[0];
    assert.ok(box !== undefined);
    // Offset = area * ratio / perimeter of the kernel.
    const d = (120 * 16 * 1.5) / (2 * (120 + 16));
    assert.ok(Math.abs(box.rect.width - (120 + 2 * d)) < 3, `width ${box.rect.width}`);
    assert.ok(Math.abs(box.rect.height - (16 + 2 * d)) < 3, `height ${box.rect.height}`);
    assert.ok(Math.abs(Math.atan2(box.rect.uy, box.rect.ux) - 0.2) < 0.03);
    assert.ok(Math.abs(box.rect.cx - 100) < 1 && Math.abs(box.rect.cy - 60) < 1);
    assert.ok(box.score > DEFAULT_DETECTION.boxThreshold, `score ${box.score}`);
  });

  it('drops specks and weak regions', () => {
    const probability = map(100, 100, { cx: 50, cy: 50, w: 2, h: 2, angle: 0 });
    assert.equal(boxesFromMap(probability, 100, 100, DEFAULT_DETECTION).length, 0);
    const weak = map(100, 100, { cx: 50, cy: 50, w: 60, h: 12, angle: 0 }).map((v) => v * 0.5);
    assert.equal(boxesFromMap(weak, 100, 100, DEFAULT_DETECTION).length, 0);
  });
});
