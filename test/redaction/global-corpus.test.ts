/**
 * Global redaction (POST /global/redact) measured on generated documents in every accepted
 * format (test/fixtures/global/documents.ts) and every mode. CI runs a fixed subset (a
 * text-layer PDF in every mode, each OCR'd format in `box` and one other mode);
 * `PARDA_CORPUS=full` runs two A4 documents of every format in every mode and prints the
 * figures. A value counts as covered only when the output's replaced regions cover its printed
 * boxes; then independent readers look for it in the output: PDF text extraction and
 * Tesseract. Metadata, the words that must survive, and the consistency of tokens and
 * pseudonyms are checked on the same runs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { loadSettings } from '../../src/config/settings.js';
import { GLOBAL_FORMATS } from '../../src/documents/document.js';
import { intake } from '../../src/documents/intake.js';
import { metadataPresent } from '../../src/documents/metadata.js';
import { mupdf } from '../../src/documents/mupdf.js';
import type { RasterImage } from '../../src/domain/raster.js';
import { boundsOf } from '../../src/redaction/geometry.js';
import { closeEngines } from '../../src/services/engines.js';
import { MODES, type Mode } from '../../src/redaction/operators/types.js';
import type { GlobalRedactResult } from '../../src/services/redact-global.js';
import {
  generateGlobalDocument,
  GLOBAL_VARIANTS,
  type Box,
  type GlobalDocument,
  type GlobalTruth,
  type GlobalVariant,
} from '../fixtures/global/documents.js';
import { GLOBAL_TYPES } from '../fixtures/global/values.js';
import { globalRedactor, pagesOf } from '../helpers/global-redact.js';
import { blackShare } from '../helpers/pixels.js';
import { closeTesseract, tesseract } from '../helpers/tesseract.js';

const FULL = process.env['PARDA_CORPUS'] === 'full';
const SEED = 20261125;
/** Share of a value's printed box that the replaced regions must cover. */
const COVERED = 0.97;
/** A negative with this much of its box in a region was redacted. */
const TOUCHED = 0.25;
/** Output pages are rendered at this resolution to be checked and read. */
const CHECK_DPI = 150;

interface Run {
  readonly doc: GlobalDocument;
  readonly mode: Mode;
  readonly stripMetadata: boolean;
  readonly result: GlobalRedactResult;
}

/** The runs of the plan: which documents, in which modes. */
function plan(): { variant: GlobalVariant; seed: number; size: 'page' | 'short'; modes: Mode[] }[] {
  const imageModes = (variant: GlobalVariant) =>
    variant === 'text-pdf' || variant === 'scanned-pdf'
      ? MODES.filter((m) => m !== 'blur')
      : [...MODES];
  if (FULL) {
    return GLOBAL_VARIANTS.flatMap((variant, v) =>
      [0, 1].map((k) => ({
        variant,
        seed: SEED + 100 * v + k,
        size: 'page' as const,
        modes: imageModes(variant),
      })),
    );
  }
  // CI: each OCR'd format in box and one other mode, in turn; the text PDF in every mode.
  const others: Mode[] = ['token', 'blur', 'mask', 'pseudonym', 'blur', 'token'];
  return GLOBAL_VARIANTS.map((variant, v) => ({
    variant,
    seed: SEED + 100 * v,
    size: variant === 'text-pdf' ? ('page' as const) : ('short' as const),
    modes:
      variant === 'text-pdf'
        ? imageModes(variant)
        : ['box', variant === 'scanned-pdf' ? 'mask' : (others[v - 1] ?? 'token')],
  }));
}

const isPdf = (doc: GlobalDocument) => doc.filename.endsWith('.pdf');

type Rect = { x0: number; y0: number; x1: number; y1: number };

/** Share of `box` inside the union of `rects`, sampled on a 40 x 8 grid. */
function coveredShare(box: Box, rects: readonly Rect[]): number {
  let inside = 0;
  const nx = 40;
  const ny = 8;
  for (let i = 0; i < nx; i += 1) {
    for (let j = 0; j < ny; j += 1) {
      const x = box.x0 + ((i + 0.5) * (box.x1 - box.x0)) / nx;
      const y = box.y0 + ((j + 0.5) * (box.y1 - box.y0)) / ny;
      if (rects.some((r) => x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1)) inside += 1;
    }
  }
  return inside / (nx * ny);
}

const overlaps = (a: Rect, b: Rect) =>
  Math.min(a.x1, b.x1) > Math.max(a.x0, b.x0) && Math.min(a.y1, b.y1) > Math.max(a.y0, b.y0);

const regionRects = (result: GlobalRedactResult, page: number): Rect[] =>
  result.regions.filter((r) => r.page === page).flatMap((r) => r.quads.map(boundsOf));

/** Letters, digits and '@', upper case: how values are compared with what a reader saw. */
const normal = (text: string) => text.toUpperCase().replace(/[^A-Z0-9@]/g, '');
/** The same, for values long enough to be unambiguous in a page of text. */
const searchable = (printed: string) => normal(printed).length >= 8;

interface Structured {
  readonly text: string;
  readonly chars: { c: string; x: number; y: number }[];
}

/** Each page's text (whitespace folded) and its characters with their centres, in points. */
function pdfPages(bytes: Buffer): Structured[] {
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  const pages: Structured[] = [];
  for (let i = 0; i < doc.countPages(); i += 1) {
    const page = doc.loadPage(i);
    const structured = page.toStructuredText('preserve-whitespace');
    const chars: { c: string; x: number; y: number }[] = [];
    structured.walk({
      onChar(c, _origin, _font, _size, quad) {
        chars.push({ c, x: (quad[0] + quad[2]) / 2, y: (quad[1] + quad[5]) / 2 });
      },
    });
    pages.push({ text: structured.asText().replace(/\s+/g, ' ').trim(), chars });
    structured.destroy();
    page.destroy();
  }
  doc.destroy();
  return pages;
}

/** The characters drawn inside a box: what replaced a value there. */
const textIn = (page: Structured | undefined, box: Box) =>
  (page?.chars ?? [])
    .filter(
      (ch) => ch.x >= box.x0 - 1 && ch.x <= box.x1 + 1 && ch.y >= box.y0 - 2 && ch.y <= box.y1 + 2,
    )
    .map((ch) => ch.c)
    .join('')
    .trim();

async function tesseractText(images: readonly RasterImage[], dpi: number): Promise<string> {
  const reader = await tesseract();
  let text = '';
  for (const image of images) {
    const png = await sharp(image.pixels, {
      raw: { width: image.width, height: image.height, channels: image.channels },
    })
      .withMetadata({ density: dpi })
      .png()
      .toBuffer();
    text += `${(await reader.recognize(png)).data.text}\n`;
  }
  return normal(text);
}

const values = (doc: GlobalDocument) => doc.truth.filter((t) => t.item.role === 'value');

describe(`Global redaction on generated documents (${FULL ? 'full' : 'CI subset'})`, () => {
  const settings = loadSettings({});
  const runs: Run[] = [];
  const docs: GlobalDocument[] = [];

  const redactFile = globalRedactor(settings);
  const redact = (doc: GlobalDocument, mode: Mode, stripMetadata = true) =>
    redactFile(doc.bytes, doc.filename, mode, stripMetadata);

  before(async () => {
    for (const p of plan()) {
      const doc = await generateGlobalDocument(p.variant, p.seed, p.size);
      docs.push(doc);
      for (const mode of p.modes) {
        runs.push({ doc, mode, stripMetadata: true, result: await redact(doc, mode) });
      }
    }
  });
  after(async () => {
    await closeEngines();
    await closeTesseract();
  });

  it('covers every value of every type in every format and mode, and no negative', (t) => {
    const tally = new Map<string, { total: number; covered: number }>();
    const missed: string[] = [];
    const touched: string[] = [];
    const stray: string[] = [];
    let partialNearMisses = 0;
    for (const run of runs) {
      /** The entries a region may lie on: the values, and near misses covered as above. */
      const allowed: GlobalTruth[] = [...values(run.doc)];
      for (const entry of run.doc.truth) {
        const shares = entry.boxes.map((b) => coveredShare(b, regionRects(run.result, b.page)));
        if (entry.item.role === 'value') {
          const key = entry.item.type;
          const row = tally.get(key) ?? { total: 0, covered: 0 };
          const covered = shares.every((s) => s >= COVERED);
          tally.set(key, { total: row.total + 1, covered: row.covered + (covered ? 1 : 0) });
          if (!covered)
            missed.push(
              `${run.doc.id} ${run.mode}: ${key} ${entry.item.printed.replace(/\n/g, '/')} ` +
                `(${shares.map((s) => s.toFixed(2)).join('/')})`,
            );
        } else if (shares.some((s) => s >= TOUCHED)) {
          // A TD1 zone whose first row OCR misread is found by its second row, which holds no
          // composite digit: a near miss whose only fault is that digit cannot be told apart
          // then, and is covered (failing closed). The report says which rule found it.
          const partial =
            entry.item.kind === 'mrz_check' &&
            run.result.report.entities.some(
              (e) =>
                e.type === 'PASSPORT_MRZ' &&
                entry.boxes.some((b) => e.page === b.page + 1) &&
                e.validation.includes('one row checked'),
            );
          if (partial) {
            partialNearMisses += 1;
            allowed.push(entry);
          } else
            touched.push(`${run.doc.id} ${run.mode}: ${entry.item.kind} ${entry.item.printed}`);
        }
      }
      for (const region of run.result.regions) {
        for (const quad of region.quads) {
          const b = boundsOf(quad);
          const onValue = allowed.some((v) =>
            v.boxes.some((box) => box.page === region.page && overlaps(box, b)),
          );
          if (!onValue) stray.push(`${run.doc.id} ${run.mode} page ${region.page + 1}`);
        }
      }
    }
    for (const type of GLOBAL_TYPES) {
      const row = tally.get(type);
      t.diagnostic(`${type}: ${row?.covered ?? 0}/${row?.total ?? 0}`);
    }
    for (const line of missed) t.diagnostic(`missed ${line}`);
    t.diagnostic(`runs: ${runs.length} over ${docs.length} documents`);
    t.diagnostic(`MRZ near misses covered as zones with a misread row: ${partialNearMisses}`);
    for (const type of GLOBAL_TYPES) assert.ok((tally.get(type)?.total ?? 0) > 0, type);
    assert.deepEqual(missed, []);
    assert.deepEqual(touched, []);
    assert.deepEqual(stray, []);
  });

  it('box mode blacks out every value in the output pixels', async () => {
    const thin: string[] = [];
    for (const run of runs.filter((r) => r.mode === 'box')) {
      const output = await pagesOf(run.result.bytes, run.result.format === 'pdf', CHECK_DPI);
      for (const v of values(run.doc)) {
        for (const box of v.boxes) {
          const image = output.images[box.page];
          const share = image ? blackShare(image, box, output.scale) : 0;
          if (share < COVERED) thin.push(`${run.doc.id}: ${v.item.printed} ${share.toFixed(2)}`);
        }
      }
    }
    assert.deepEqual(thin, []);
  });

  it('output PDFs hold none of the values in their text; every other word is kept in order', () => {
    for (const run of runs.filter((r) => r.result.format === 'pdf')) {
      const pages = pdfPages(run.result.bytes);
      const all = normal(pages.map((p) => p.text).join(' '));
      for (const v of values(run.doc)) {
        if (searchable(v.item.printed))
          assert.ok(!all.includes(normal(v.item.printed)), `${run.doc.id} ${run.mode}: a value`);
      }
      if (run.doc.variant !== 'text-pdf') {
        // A scanned page has no text before or after (the replacement drawn in place aside).
        if (run.mode === 'box') assert.equal(pages.map((p) => p.text).join(''), '');
        continue;
      }
      run.doc.pageText.forEach((printed, index) => {
        // The page as printed, without its values: the words that must all still be there.
        let expected = printed;
        for (const v of values(run.doc)) {
          if (!v.boxes.some((b) => b.page === index)) continue;
          for (const line of v.item.printed.split('\n')) expected = expected.split(line).join(' ');
        }
        const words = expected.split(/\s+/).filter((w) => w.length > 0);
        const got = (pages[index]?.text ?? '').split(' ');
        if (run.mode === 'box') {
          assert.deepEqual(
            got,
            words,
            `${run.doc.id} page ${index + 1}: the other words, in order`,
          );
          return;
        }
        // Replacements are drawn as text too: the other words must come in order among them.
        let at = 0;
        for (const word of got) if (word === words[at]) at += 1;
        assert.equal(at, words.length, `${run.doc.id} ${run.mode} page ${index + 1}`);
      });
    }
  });

  it('draws masks, tokens and pseudonyms in place: consistent in a document, unlinked across documents', () => {
    const standIns = new Map<string, string[]>();
    for (const run of runs.filter((r) => r.doc.variant === 'text-pdf' && r.mode !== 'box')) {
      const pages = pdfPages(run.result.bytes);
      const seen = new Map<string, string>();
      for (const v of values(run.doc)) {
        if (v.item.role !== 'value' || v.item.printed.includes('\n')) continue;
        const drawn = v.boxes.map((b) => textIn(pages[b.page], b));
        const [first] = drawn;
        assert.ok(first, `${run.doc.id} ${run.mode}: something drawn over ${v.item.type}`);
        for (const d of drawn) assert.equal(d, first, `${run.mode}: the same on every page`);
        assert.notEqual(normal(first), normal(v.item.printed));
        if (run.mode === 'token') assert.match(first, new RegExp(`^\\[${v.item.type}_\\d+\\]$`));
        if (run.mode === 'mask') {
          const keep = normal(v.item.printed).slice(-4);
          assert.ok(
            first.includes('*') && normal(first).endsWith(keep),
            `${first} masks ${v.item.printed}`,
          );
        }
        if (run.mode !== 'mask') {
          const other = seen.get(first);
          assert.ok(
            other === undefined || other === v.item.printed,
            `${first}: one value, one stand-in`,
          );
          seen.set(first, v.item.printed);
        }
        if (run.mode === 'pseudonym') {
          const list = standIns.get(v.item.printed) ?? [];
          standIns.set(v.item.printed, [...list, first]);
        }
      }
    }
    assert.ok(standIns.size > 0);
    // The same value in another redaction gets another pseudonym (runs of a second document
    // and the second run below).
  });

  it('pseudonyms differ between two redactions of the same document', async () => {
    const doc = docs.find((d) => d.variant === 'text-pdf');
    assert.ok(doc);
    const first = pdfPages((await redact(doc, 'pseudonym')).bytes);
    const second = pdfPages((await redact(doc, 'pseudonym')).bytes);
    let compared = 0;
    for (const v of values(doc)) {
      const box = v.boxes[0];
      if (!box || v.item.printed.includes('\n')) continue;
      const a = textIn(first[box.page], box);
      const b = textIn(second[box.page], box);
      assert.ok(a.length > 0 && b.length > 0);
      if (a !== b) compared += 1;
    }
    // A stand-in may repeat by chance (a date of birth has few places to go); most must not.
    assert.ok(compared >= 0.9 * values(doc).length, `${compared} of ${values(doc).length} differ`);
  });

  it('strips metadata by default and keeps it with strip_metadata=false', async () => {
    const meta = async (bytes: Buffer, filename: string) => {
      const document = await intake(bytes, filename, {
        accepted: GLOBAL_FORMATS,
        maxPixels: settings.maxImagePixels,
        maxPages: settings.maxPages,
      });
      try {
        return await metadataPresent(document);
      } finally {
        document.dispose();
      }
    };
    const outName = (r: GlobalRedactResult) => `out.${r.format === 'jpeg' ? 'jpg' : r.format}`;
    for (const doc of docs.filter((d, i) => docs.findIndex((x) => x.variant === d.variant) === i)) {
      assert.deepEqual(await meta(doc.bytes, doc.filename), doc.metadata, `${doc.id}: input`);
      const stripped = runs.find((r) => r.doc === doc && r.mode === 'box');
      assert.ok(stripped);
      assert.deepEqual(await meta(stripped.result.bytes, outName(stripped.result)), [], doc.id);
      const kept = await redact(doc, 'box', false);
      const left = await meta(kept.bytes, outName(kept));
      for (const name of doc.metadata)
        assert.ok(left.includes(name), `${doc.id}: ${name} kept (${left.join(',')})`);
    }
  });

  it('an independent reader (Tesseract) finds none of the values in the OCR outputs', async (t) => {
    let readOnInput = 0;
    const leaks: string[] = [];
    const rasterRuns = runs.filter((r) => r.doc.variant !== 'text-pdf');
    const inputsRead = new Set<GlobalDocument>();
    for (const run of rasterRuns) {
      const targets = values(run.doc).filter((v) => searchable(v.item.printed));
      if (!inputsRead.has(run.doc)) {
        inputsRead.add(run.doc);
        const input = await pagesOf(run.doc.bytes, isPdf(run.doc), CHECK_DPI);
        const seen = await tesseractText(input.images, isPdf(run.doc) ? CHECK_DPI : run.doc.dpi);
        readOnInput += targets.filter((v) => seen.includes(normal(v.item.printed))).length;
      }
      const output = await pagesOf(run.result.bytes, run.result.format === 'pdf', CHECK_DPI);
      const seen = await tesseractText(
        output.images,
        run.result.format === 'pdf' ? CHECK_DPI : run.doc.dpi,
      );
      for (const v of targets) {
        if (seen.includes(normal(v.item.printed)))
          leaks.push(`${run.doc.id} ${run.mode}: ${v.item.printed}`);
      }
    }
    t.diagnostic(`Tesseract read ${readOnInput} values on the inputs`);
    assert.ok(readOnInput >= 10, 'the reader reads the inputs, so its silence means something');
    assert.deepEqual(leaks, []);
  });
});
