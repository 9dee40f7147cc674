/**
 * OCR benchmark: what one read costs per stage on synthetic pages (a photographed card, A4
 * scans holding cards, one turned a quarter, a dense letter read as a document), and one page
 * again with the models' graphs as exported (not folded). Prints a table; asserts nothing.
 *   npx tsc -p tsconfig.json && node dist/bench/ocr.js [runs]
 */
import { performance } from 'node:perf_hooks';
import { percentile } from './http.js';
import sharp from 'sharp';
import { createPaddleOcr, type PaddleOcr, type StageTimings } from '../src/ocr/index.js';
import type { RasterImage } from '../src/domain/raster.js';
import type { ReadPurpose } from '../src/ocr/types.js';
import { letterPage, scannedLetters } from './letter.js';
import { drawCard, Page } from '../test/ocr/fixtures.js';

interface Case {
  readonly name: string;
  readonly image: RasterImage;
  readonly expected: readonly string[];
  readonly purpose?: ReadPurpose;
}

/** A camera-like copy: slight blur, JPEG at quality 70, sensor noise (deterministic). */
async function photographed(image: RasterImage): Promise<RasterImage> {
  const jpeg = await sharp(image.pixels, {
    raw: { width: image.width, height: image.height, channels: image.channels },
  })
    .removeAlpha()
    .blur(0.8)
    .jpeg({ quality: 70 })
    .toBuffer();
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  let seed = 1;
  for (let i = 0; i < data.length; i += 1) {
    seed = (seed * 16807) % 2147483647;
    data[i] = Math.max(
      0,
      Math.min(255, (data[i] ?? 0) + Math.round((seed / 2147483647 - 0.5) * 24)),
    );
  }
  return { width: info.width, height: info.height, channels: 3, pixels: data };
}

async function cases(): Promise<Case[]> {
  const result: Case[] = [];
  for (const orientation of [0, 90] as const) {
    const page = new Page(
      orientation === 0 ? 1200 : 760,
      orientation === 0 ? 760 : 1200,
      '#6f7d63',
    );
    const drawn = drawCard(page, {
      x: orientation === 0 ? 50 : 710,
      y: 50,
      scale: 1.1,
      orientation,
    });
    result.push({
      name: `card photo ${orientation}°`,
      image: await photographed(page.raster()),
      expected: drawn.map((d) => d.text),
    });
  }
  const a4 = new Page(2480, 3508);
  const one = drawCard(a4, { x: 300, y: 400, scale: 1.011 });
  result.push({
    name: 'A4 300 dpi, one card',
    image: a4.raster(),
    expected: one.map((d) => d.text),
  });
  const a4two = new Page(2480, 3508);
  const both = [
    ...drawCard(a4two, { x: 300, y: 400, scale: 1.011 }),
    ...drawCard(a4two, { x: 1900, y: 1500, scale: 1.011, orientation: 90 }),
  ];
  result.push({
    name: 'A4 300 dpi, two cards (one 90°)',
    image: a4two.raster(),
    expected: both.map((d) => d.text),
  });
  // The scanned page of bench/redact.ts, read as /redact-pii reads it.
  result.push({
    name: 'dense A4 letter 200 dpi, as a document',
    image: scannedLetters(1, 200)[0] as RasterImage,
    expected: letterPage(1).map((l) => l.text),
    purpose: 'document',
  });
  return result;
}

function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

async function measure(engine: PaddleOcr, c: Case, runs: number): Promise<Record<string, string>> {
  const warm = await engine.readWithTimings(c.image, 0, c.purpose);
  const texts = new Set(warm.text.lines.map((l) => l.text));
  // Counts only: recognised text is never printed.
  const found = c.expected.filter((t) => texts.has(t)).length;
  const walls: number[] = [];
  const stages: StageTimings[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    const { timings } = await engine.readWithTimings(c.image, 0, c.purpose);
    walls.push(performance.now() - t0);
    stages.push(timings);
  }
  walls.sort((a, b) => a - b);
  const ms = (v: number): string => v.toFixed(0);
  return {
    case: c.name,
    image: `${c.image.width}x${c.image.height}`,
    detector: warm.timings.detectionInputs,
    boxes: String(warm.timings.boxes),
    lines: String(warm.text.lines.length),
    'read right': `${found}/${c.expected.length}`,
    'rec cols': String(warm.timings.recognitionColumns),
    'det ms': ms(median(stages.map((s) => s.detection))),
    'orient ms': ms(median(stages.map((s) => s.orientation))),
    'rec ms': ms(median(stages.map((s) => s.recognition))),
    'p50 ms': ms(percentile(walls, 0.5)),
    'p95 ms': ms(percentile(walls, 0.95)),
  };
}

const runs = Number(process.argv[2] ?? 20);
const all = await cases();
const rows: Record<string, string>[] = [];
const engine = await createPaddleOcr();
try {
  for (const c of all)
    rows.push(await measure(engine, c, c.image.width > 2000 ? Math.ceil(runs / 4) : runs));
} finally {
  await engine.close();
}
// The same upright card read by an engine that does not look for turned text.
const upright = await createPaddleOcr({ orientations: false });
try {
  const card = all[0] as Case;
  rows.push(await measure(upright, { ...card, name: `${card.name}, orientations off` }, runs));
} finally {
  await upright.close();
}
// The A4 page with two cards read by the models as exported (graph-folding.ts off).
const exported = await createPaddleOcr({ foldGraphs: false });
try {
  const page = all[3] as Case;
  const slow = Math.ceil(runs / 4);
  rows.push(await measure(exported, { ...page, name: `${page.name}, graphs as exported` }, slow));
} finally {
  await exported.close();
}
console.table(rows);
const p50 = (name: string): number => Number(rows.find((r) => r.case === name)?.['p50 ms']);
console.log(
  `orientation overhead on the upright card: ${(p50('card photo 0°') / p50('card photo 0°, orientations off')).toFixed(2)}x`,
);
