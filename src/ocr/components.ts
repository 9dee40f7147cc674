/**
 * 8-connected components of a binary mask, each reduced to the outline points its convex hull
 * needs. Hand-written (sharp has no labelling); one flood fill over typed arrays, linear time.
 */

export interface Component {
  /** Number of pixels. */
  readonly area: number;
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
  /** Pixel-corner points of each row's leftmost and rightmost pixel, flat [x, y, ...]: their hull is the component's hull. */
  readonly outline: Float64Array;
}

/**
 * Labels `mask` (1 = foreground; the array is consumed: visited pixels are set to 2).
 * Components smaller than `minArea` pixels are skipped.
 */
export function connectedComponents(
  mask: Uint8Array,
  width: number,
  height: number,
  minArea: number,
  maxComponents: number,
): Component[] {
  const components: Component[] = [];
  const stack = new Int32Array(width * height);
  // Per-row extremes of the component being filled, indexed by row.
  const rowMin = new Int32Array(height).fill(width);
  const rowMax = new Int32Array(height).fill(-1);
  for (let start = 0; start < mask.length; start += 1) {
    if (mask[start] !== 1) continue;
    let top = 0;
    stack[top++] = start;
    mask[start] = 2;
    let area = 0;
    let minX = width;
    let maxX = -1;
    let minY = height;
    let maxY = -1;
    while (top > 0) {
      const p = stack[--top] as number;
      const y = (p / width) | 0;
      const x = p - y * width;
      area += 1;
      if (x < (rowMin[y] as number)) rowMin[y] = x;
      if (x > (rowMax[y] as number)) rowMax[y] = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      const y0 = y > 0 ? y - 1 : y;
      const y1 = y < height - 1 ? y + 1 : y;
      const x0 = x > 0 ? x - 1 : x;
      const x1 = x < width - 1 ? x + 1 : x;
      for (let ny = y0; ny <= y1; ny += 1) {
        const row = ny * width;
        for (let nx = x0; nx <= x1; nx += 1) {
          const q = row + nx;
          if (mask[q] === 1) {
            mask[q] = 2;
            stack[top++] = q;
          }
        }
      }
    }
    if (area >= minArea && components.length < maxComponents) {
      const outline = new Float64Array((maxY - minY + 1) * 8);
      let k = 0;
      for (let y = minY; y <= maxY; y += 1) {
        const lo = rowMin[y] as number;
        const hi = (rowMax[y] as number) + 1;
        outline.set([lo, y, lo, y + 1, hi, y, hi, y + 1], k);
        k += 8;
      }
      components.push({ area, minX, minY, maxX, maxY, outline });
    }
    rowMin.fill(width, minY, maxY + 1);
    rowMax.fill(-1, minY, maxY + 1);
  }
  return components;
}
