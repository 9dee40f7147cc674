/**
 * Text detection with PP-OCR's DB (differentiable binarisation) network: a probability map of
 * "text here", thresholded into regions, each region reduced to its minimum-area rectangle,
 * scored, grown back by the "unclip" offset (the network is trained on shrunk text kernels),
 * and mapped to page pixels. The map is read only for its boxes; recognition crops come from
 * the full-resolution page.
 */
import { ort } from './runtime.js';
import { connectedComponents } from './components.js';
import {
  detectionInput,
  detectionScales,
  inputSize,
  type DetectionSizing,
  type Region,
} from './detection-input.js';
import type { PageDetector } from './page-detector.js';
import { contentRegions } from './regions.js';
import {
  convexHull,
  growRect,
  minAreaRect,
  rectCorners,
  scaleRect,
  type RotatedRect,
} from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';
import { ScratchBuffers } from '../domain/scratch-buffers.js';

export interface DetectionSettings extends DetectionSizing {
  /** minScale for the `document` reading purpose (see ReadPurpose). */
  readonly documentMinScale: number;
  /** Probability above which a map pixel is text (PP-OCR det_db_thresh). */
  readonly threshold: number;
  /** Minimum mean probability inside a box (det_db_box_thresh). */
  readonly boxThreshold: number;
  /** Growth of each box, as area * ratio / perimeter (det_db_unclip_ratio). */
  readonly unclipRatio: number;
  /** Shortest box side kept, in detector pixels. */
  readonly minSize: number;
  readonly maxCandidates: number;
}

export interface DetectedBox {
  /** In page pixels, already grown by the unclip offset. */
  readonly rect: RotatedRect;
  readonly score: number;
}

export interface Detection {
  readonly boxes: DetectedBox[];
  /** Sizes of the detector inputs run: one for a photo or a busy page, one per content region of a scan. */
  readonly passes: readonly { readonly width: number; readonly height: number }[];
}

/**
 * The detector twice over the same weights. `photo` keeps onnxruntime's memory arena for good:
 * a photo-sized image, read in one pass within maxSide, reuses the arena's buffers (measured:
 * 736 x 544 in 50 ms against 72 ms without it). A big page's content regions come in every size
 * and need far larger buffers; they go through `page`, whose arena is given back when pages stop
 * coming (page-detector.ts).
 */
export interface DetectorSessions {
  readonly photo: ort.InferenceSession;
  readonly page: PageDetector;
}

/** Detector inputs, kept between pages and photos (scratch-buffers.ts). */
const detectorInputs = new ScratchBuffers((length) => new Float32Array(length));

/** Beyond this share of the page in content regions, one detailed pass over the page is cheaper. */
const REGION_SHARE = 0.6;

/**
 * Finds text boxes. A photo-sized image is read in one pass. A big page (a scan) would be
 * shrunk so far that small print vanishes, and reading all of it in detail costs seconds; so
 * only the regions that hold anything (regions.ts) are read in detail.
 */
export async function detectText(
  sessions: DetectorSessions,
  image: RasterImage,
  settings: DetectionSettings,
): Promise<Detection> {
  const page: Region = { left: 0, top: 0, width: image.width, height: image.height };
  const { normal, fine } = detectionScales(image.width, image.height, settings);
  const bigPage = fine > normal;
  const regions = bigPage ? contentRegions(image, REGION_SHARE) : [page];
  const readRegions = async (session: ort.InferenceSession): Promise<Detection> => {
    const boxes: DetectedBox[] = [];
    const passes: { width: number; height: number }[] = [];
    for (const region of regions) {
      const pass = await runPass(session, image, region, fine, settings);
      boxes.push(...pass.boxes);
      passes.push(pass.size);
    }
    return { boxes, passes };
  };
  return bigPage ? sessions.page.use(readRegions) : readRegions(sessions.photo);
}

/** One detector run over a region of the page; boxes in page pixels. */
async function runPass(
  session: ort.InferenceSession,
  image: RasterImage,
  region: Region,
  scale: number,
  settings: DetectionSettings,
): Promise<{ boxes: DetectedBox[]; size: { width: number; height: number } }> {
  const size = inputSize(region, scale);
  const { input, found } = await detectorInputs.with(3 * size.width * size.height, async (data) => {
    const input = await detectionInput(image, region, scale, data);
    const tensor = new ort.Tensor('float32', input.data, [1, 3, input.height, input.width]);
    const outputs = await session.run({ [session.inputNames[0] ?? 'x']: tensor });
    tensor.dispose();
    const output = outputs[session.outputNames[0] ?? ''];
    if (output === undefined) throw new Error('The detection model returned no output.');
    const found = boxesFromMap(output.data as Float32Array, input.width, input.height, settings);
    output.dispose();
    return { input, found };
  });
  const boxes = found.map((box) => {
    const rect = scaleRect(box.rect, input.scaleX, input.scaleY);
    return {
      rect: { ...rect, cx: rect.cx + input.left, cy: rect.cy + input.top },
      score: box.score,
    };
  });
  return { boxes, size: { width: input.width, height: input.height } };
}

/** DB post-processing on a width x height probability map; boxes in map pixels. */
export function boxesFromMap(
  probability: Float32Array,
  width: number,
  height: number,
  settings: DetectionSettings,
): DetectedBox[] {
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i += 1) {
    mask[i] = (probability[i] as number) > settings.threshold ? 1 : 0;
  }
  const minArea = Math.max(1, settings.minSize * settings.minSize);
  const components = connectedComponents(mask, width, height, minArea, settings.maxCandidates);
  const boxes: DetectedBox[] = [];
  for (const component of components) {
    const rect = minAreaRect(convexHull(component.outline));
    if (Math.min(rect.width, rect.height) < settings.minSize) continue;
    const score = meanInside(probability, width, height, rect);
    if (score < settings.boxThreshold) continue;
    const area = rect.width * rect.height;
    const perimeter = 2 * (rect.width + rect.height);
    const grown = growRect(rect, (area * settings.unclipRatio) / perimeter);
    if (Math.min(grown.width, grown.height) < settings.minSize + 2) continue;
    boxes.push({ rect: grown, score });
  }
  return boxes;
}

/** Mean probability over the map pixels whose centres fall inside the rectangle (PP-OCR's box score). */
function meanInside(
  probability: Float32Array,
  width: number,
  height: number,
  rect: RotatedRect,
): number {
  const corners = rectCorners(rect);
  const xs = corners.map((p) => p.x);
  const ys = corners.map((p) => p.y);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)));
  const x1 = Math.min(width - 1, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const y1 = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  const hw = rect.width / 2 + 1e-6;
  const hh = rect.height / 2 + 1e-6;
  let sum = 0;
  let count = 0;
  for (let y = y0; y <= y1; y += 1) {
    const py = y + 0.5 - rect.cy;
    for (let x = x0; x <= x1; x += 1) {
      const px = x + 0.5 - rect.cx;
      const along = px * rect.ux + py * rect.uy;
      const across = -px * rect.uy + py * rect.ux;
      if (Math.abs(along) <= hw && Math.abs(across) <= hh) {
        sum += probability[y * width + x] as number;
        count += 1;
      }
    }
  }
  return count === 0 ? 0 : sum / count;
}
