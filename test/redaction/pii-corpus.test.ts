/**
 * Redaction of Indian identifiers measured on the generated corpus (test/fixtures/redaction):
 * letters, tables and forms as text-layer PDFs, scanned PDFs and images. CI runs a fixed
 * subset; `PARDA_CORPUS=full` runs the whole corpus and prints the figures. Ground truth is
 * geometric (the printed box of every identifier and negative): a value counts as redacted only
 * if the output's own pixels are black over it. An independent reader (PDF text extraction and
 * Tesseract) then looks for the values in the outputs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { loadSettings } from '../../src/config/settings.js';
import { INDIAN_FORMATS } from '../../src/documents/document.js';
import { intake } from '../../src/documents/intake.js';
import { mupdf } from '../../src/documents/mupdf.js';
import { renderPdfPage } from '../../src/documents/render.js';
import type { RasterImage } from '../../src/domain/raster.js';
import { boundsOf } from '../../src/redaction/geometry.js';
import { serviceContext } from '../../src/services/context.js';
import { closeEngines } from '../../src/services/engines.js';
import { redactDocument, type RedactResult } from '../../src/services/redact-pii.js';
import {
  corpusPlan,
  DEFAULT_TYPES,
  generateRedactionDocument,
  NEGATIVE_KINDS,
  type Box,
  type RedactionDocument,
  type TruthItem,
  type ValueType,
} from '../fixtures/redaction/index.js';
import { blackShare, decodeRgb } from '../helpers/pixels.js';
import { closeTesseract, tesseract } from '../helpers/tesseract.js';

const FULL = process.env['PARDA_CORPUS'] === 'full';
const COUNTS = FULL
  ? { 'text-pdf': 24, 'scanned-pdf': 10, png: 8, jpeg: 8 }
  : { 'text-pdf': 3, 'scanned-pdf': 1, png: 1, jpeg: 1 };
const SEED = 20261124;
/** Share of a value's box that must be black for it to count as covered. */
const COVERED = 0.97;
/** A negative with this much of its box black was redacted. */
const TOUCHED = 0.25;
/**
 * A cover that reaches this share of a word's width into the word beside a value touched it
 * (half a point of "in"). Measured on the covers' geometry: the output's pixels differ from the
 * input's around small text anyway (a page rendered and encoded again).
 */
const NEIGHBOUR_TOUCHED = 0.05;
/** On OCR'd pages, the share of the words beside values a cover may reach (see the test). */
const OCR_NEIGHBOURS_TOUCHED = 0.05;
/** Output pages are rendered at this resolution to be checked... */
const CHECK_DPI = 100;
/** ...and at this one to be read by Tesseract. */
const READ_DPI = 200;

/** The pages of a document as pixels, and the factor from truth units to those pixels. */
async function pagesOf(bytes: Buffer, isPdf: boolean, dpi: number) {
  if (!isPdf) return { images: [await decodeRgb(bytes)], scale: 1 };
  const pdf = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF();
  if (!pdf) throw new Error('not a PDF');
  const images = Array.from({ length: pdf.countPages() }, (_, i) => renderPdfPage(pdf, i, dpi));
  pdf.destroy();
  return { images, scale: dpi / 72 };
}

interface Score {
  readonly id: string;
  /**
   * Per type: values in the document, values whose every box is covered, and values covered at
   * least in part (what the headers count: a value partly covered is a recall miss, not a lie).
   */
  readonly values: Map<ValueType, { total: number; covered: number; touched: number }>;
  readonly missed: string[];
  /** The truth entries of the values not wholly covered (recall misses). */
  readonly uncovered: ReadonlySet<TruthItem>;
  readonly negatives: number;
  readonly negativesTouched: string[];
  /** Covered regions that overlap no identifier. */
  readonly strayRegions: number;
  /** Words beside a covered value (a space away) that a cover reaches into (NEIGHBOUR_TOUCHED). */
  readonly neighbours: number;
  readonly neighboursTouched: number;
}

const overlaps = (a: Box, b: { x0: number; y0: number; x1: number; y1: number }) =>
  Math.min(a.x1, b.x1) > Math.max(a.x0, b.x0) && Math.min(a.y1, b.y1) > Math.max(a.y0, b.y0);

async function score(doc: RedactionDocument, result: RedactResult): Promise<Score> {
  const output = await pagesOf(result.bytes, result.format === 'pdf', CHECK_DPI);
  // The covers as reported, in truth units (they are what the output's pixels show: the
  // coverage above is measured on those pixels).
  const covers = result.regions.flatMap((page) => {
    const k = doc.unit === 'pt' ? 72 / page.dpi : 1;
    return page.quads.map((quad) => {
      const b = boundsOf(quad);
      return { page: page.page, x0: b.x0 * k, y0: b.y0 * k, x1: b.x1 * k, y1: b.y1 * k };
    });
  });
  // A cover touches a word when it reaches into the word along the line (any share of its
  // width past NEIGHBOUR_TOUCHED) on much of its height: not a cover of the next line that
  // grazes the foot of its box.
  const touches = (b: Box) =>
    covers.some(
      (c) =>
        c.page === b.page &&
        Math.min(b.x1, c.x1) - Math.max(b.x0, c.x0) >= NEIGHBOUR_TOUCHED * (b.x1 - b.x0) &&
        Math.min(b.y1, c.y1) - Math.max(b.y0, c.y0) >= 0.3 * (b.y1 - b.y0),
    );
  let neighbours = 0;
  let neighboursTouched = 0;
  const values = new Map<ValueType, { total: number; covered: number; touched: number }>();
  const missed: string[] = [];
  const uncovered = new Set<TruthItem>();
  const negativesTouched: string[] = [];
  let negatives = 0;
  for (const entry of doc.truth) {
    const { item, boxes } = entry;
    const shares = boxes.map((b) => {
      const image = output.images[b.page];
      return image ? blackShare(image, b, output.scale) : 0;
    });
    if (item.role === 'value') {
      const tally = values.get(item.type) ?? { total: 0, covered: 0, touched: 0 };
      const covered = shares.every((s) => s >= COVERED);
      const touched = shares.some((s) => s >= TOUCHED);
      values.set(item.type, {
        total: tally.total + 1,
        covered: tally.covered + (covered ? 1 : 0),
        touched: tally.touched + (touched ? 1 : 0),
      });
      if (!covered) uncovered.add(entry);
      if (covered) {
        neighbours += entry.neighbours.length;
        neighboursTouched += entry.neighbours.filter((b) => touches(b)).length;
      }
      if (!covered)
        missed.push(
          `${item.type} (${boxes.length} line(s), black ${shares.map((s) => s.toFixed(2)).join('/')})`,
        );
    } else {
      negatives += 1;
      if (shares.some((s) => s >= TOUCHED)) negativesTouched.push(item.kind);
    }
  }
  // Every covered region lies on an identifier (regions are in the pixels of the page as written).
  let strayRegions = 0;
  for (const page of result.regions) {
    const k = doc.unit === 'pt' ? 72 / page.dpi : 1;
    for (const quad of page.quads) {
      const b = boundsOf(quad);
      const box = { x0: b.x0 * k, y0: b.y0 * k, x1: b.x1 * k, y1: b.y1 * k };
      const onValue = doc.truth.some(
        (t) =>
          t.item.role === 'value' && t.boxes.some((v) => v.page === page.page && overlaps(v, box)),
      );
      if (!onValue) strayRegions += 1;
    }
  }
  return {
    id: doc.id,
    values,
    missed,
    uncovered,
    negatives,
    negativesTouched,
    strayRegions,
    neighbours,
    neighboursTouched,
  };
}

/** Letters, digits, '@' and '.', upper case: how values are compared with what a reader saw. */
const normal = (text: string) => text.toUpperCase().replace(/[^A-Z0-9@.]/g, '');

async function tesseractText(images: readonly RasterImage[]): Promise<string> {
  const reader = await tesseract();
  let text = '';
  for (const image of images) {
    const png = await sharp(image.pixels, {
      raw: { width: image.width, height: image.height, channels: 3 },
    })
      .withMetadata({ density: READ_DPI })
      .png()
      .toBuffer();
    text += `${(await reader.recognize(png)).data.text}\n`;
  }
  return normal(text);
}

function pdfText(bytes: Buffer): string {
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  let text = '';
  for (let i = 0; i < doc.countPages(); i += 1) {
    const page = doc.loadPage(i);
    const structured = page.toStructuredText('preserve-whitespace');
    text += structured.asText();
    structured.destroy();
    page.destroy();
  }
  doc.destroy();
  return text;
}

describe(`Indian identifier redaction on the generated corpus (${FULL ? 'full' : 'CI subset'})`, () => {
  const settings = loadSettings({});
  const context = serviceContext(settings);
  const docs: RedactionDocument[] = [];
  const results = new Map<string, RedactResult>();
  const scores: Score[] = [];

  before(async () => {
    for (const { variant, seed } of corpusPlan(SEED, COUNTS)) {
      docs.push(await generateRedactionDocument(variant, seed));
    }
    const ocr = await context.ocr();
    for (const doc of docs) {
      const document = await intake(doc.bytes, doc.filename, {
        accepted: INDIAN_FORMATS,
        maxPixels: settings.maxImagePixels,
        maxPages: settings.maxPages,
      });
      const result = await redactDocument(
        document,
        // With the re-read on, as served: no value may still read in any output.
        {
          types: [...DEFAULT_TYPES],
          pdfDpi: settings.pdfOcrDpi,
          residualCheck: settings.residualCheck,
        },
        ocr,
      );
      results.set(doc.id, result);
      scores.push(await score(doc, result));
    }
  });
  after(async () => {
    await closeEngines();
    await closeTesseract();
  });

  it('covers at least 99% of the values of every default type, and nothing else', (t) => {
    const rows = DEFAULT_TYPES.map((type) => {
      const total = scores.reduce((n, s) => n + (s.values.get(type)?.total ?? 0), 0);
      const covered = scores.reduce((n, s) => n + (s.values.get(type)?.covered ?? 0), 0);
      return { type, total, covered, recall: total === 0 ? 1 : covered / total };
    });
    for (const row of rows) t.diagnostic(`${row.type}: ${row.covered}/${row.total}`);
    const negatives = scores.reduce((n, s) => n + s.negatives, 0);
    t.diagnostic(`negatives: ${negatives}, documents: ${docs.length}`);
    const beside = scores.reduce((n, s) => n + s.neighbours, 0);
    t.diagnostic(
      `words beside covered values touched: ${scores.reduce((n, s) => n + s.neighboursTouched, 0)}/${beside}`,
    );
    for (const s of scores)
      if (s.neighboursTouched > 0) t.diagnostic(`${s.id}: ${s.neighboursTouched} words touched`);
    for (const s of scores)
      if (s.missed.length > 0) t.diagnostic(`${s.id} missed ${s.missed.join(', ')}`);
    for (const row of rows) {
      assert.ok(row.total > 0, `the corpus holds ${row.type}`);
      assert.ok(row.recall >= 0.99, `${row.type}: recall ${row.covered}/${row.total}`);
    }
    assert.ok(negatives > 0);
    assert.deepEqual(
      scores.flatMap((s) => s.negativesTouched.map((k) => `${s.id}: ${k}`)),
      [],
    );
    assert.deepEqual(
      scores.filter((s) => s.strayRegions > 0).map((s) => `${s.id}: ${s.strayRegions}`),
      [],
    );
    assert.ok(beside > 0, 'values with words beside them');
    // A text layer's glyph boxes are exact: no cover may reach a word beside its value. OCR's
    // boxes are estimates and the cover stops at the gap the pixels show; a sliver of a letter
    // still goes now and then (measured: 3 of 273 words in the CI subset).
    const exact = scores.filter((s) => s.id.startsWith('text-pdf'));
    assert.deepEqual(
      exact.filter((s) => s.neighboursTouched > 0).map((s) => `${s.id}: ${s.neighboursTouched}`),
      [],
      'no word beside a value of a text layer is touched',
    );
    const read = scores.filter((s) => !s.id.startsWith('text-pdf'));
    const readTouched = read.reduce((n, s) => n + s.neighboursTouched, 0);
    const readBeside = read.reduce((n, s) => n + s.neighbours, 0);
    assert.ok(
      readTouched <= OCR_NEIGHBOURS_TOUCHED * readBeside,
      `OCR'd pages: ${readTouched} of ${readBeside} words beside values touched`,
    );
  });

  it('the corpus holds every negative kind and values broken over two lines', () => {
    const negativeKinds = new Set(
      docs.flatMap((d) =>
        d.truth.flatMap((t) => (t.item.role === 'negative' ? [t.item.kind] : [])),
      ),
    );
    for (const kind of NEGATIVE_KINDS) assert.ok(negativeKinds.has(kind), kind);
    assert.ok(
      docs.some((d) => d.truth.some((t) => t.boxes.length === 2)),
      'a value on two lines',
    );
  });

  it('reports honest counts: one region per value covered, detections per type', () => {
    for (const doc of docs) {
      const result = results.get(doc.id);
      const s = scores.find((x) => x.id === doc.id);
      assert.ok(result && s);
      const covered = Object.fromEntries(
        [...s.values].filter(([, v]) => v.touched > 0).map(([type, v]) => [type, v.touched]),
      );
      const total = Object.values(covered).reduce((a, b) => a + b, 0);
      assert.equal(result.redactedCount, total, `${doc.id}: X-Redacted-Count`);
      assert.deepEqual(result.typeCounts, covered, `${doc.id}: X-Redacted-Types`);
    }
  });

  it('an independent reader finds none of the redacted values in the outputs', async (t) => {
    let readOnInput = 0;
    let missedAndRead = 0;
    const leaks: string[] = [];
    for (const doc of docs) {
      const result = results.get(doc.id);
      if (!result) continue;
      if (result.format === 'pdf') {
        assert.equal(pdfText(result.bytes).trim(), '', `${doc.id}: the output PDF holds no text`);
      }
      // CI reads the first page of each document; the full run reads them all.
      const pages = FULL ? undefined : 1;
      const input = await pagesOf(doc.bytes, doc.filename.endsWith('.pdf'), READ_DPI);
      const output = await pagesOf(result.bytes, result.format === 'pdf', READ_DPI);
      const seenBefore = await tesseractText(input.images.slice(0, pages));
      const seenAfter = await tesseractText(output.images.slice(0, pages));
      const onPages = doc.truth.filter(
        (x) =>
          x.item.role === 'value' && x.boxes.every((b) => pages === undefined || b.page < pages),
      );
      const uncovered = scores.find((x) => x.id === doc.id)?.uncovered ?? new Set();
      for (const entry of onPages) {
        const { item } = entry;
        if (item.role !== 'value') continue;
        const value = normal(item.value);
        if (seenBefore.includes(value)) readOnInput += 1;
        if (!seenAfter.includes(value)) continue;
        // A recall miss (counted by the first test) is still there to read; nothing else may be.
        if (uncovered.has(entry)) missedAndRead += 1;
        else leaks.push(`${doc.id}: a ${item.type}`);
      }
    }
    t.diagnostic(`Tesseract read ${readOnInput} values on the inputs`);
    t.diagnostic(`Tesseract read ${missedAndRead} of the values left uncovered (recall misses)`);
    assert.ok(
      readOnInput >= 10,
      'the reader does read the inputs, so its silence on the outputs means something',
    );
    assert.deepEqual(leaks, []);
  });
});
