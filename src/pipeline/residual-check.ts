/**
 * The re-read before a masked or redacted page leaves: every covered region of the output
 * raster is read again (regions whose surroundings meet, together), so that a cover that missed
 * a sliver, slid off the glyphs or was never drawn shows up as the covered characters read once
 * more. Where the first reading's lines hold every cover of a group, the stretch of each line
 * under its covers, with half a line height more at either end, is read again from the covered
 * pixels in the orientation the line was read in: no detection pass and no direction decision,
 * which were most of the re-read's cost on a card (docs/benchmarks.md). Otherwise (a value found by
 * another reading, such as the copies look), the group is cut out with a margin of about half a
 * line around it, enlarged, and read as a page of its own at 0, 90, 180 and 270 degrees. A
 * cover that still reads is widened across its text and checked again; if it still reads, the
 * document fails (rereadPage).
 *
 * What counts as readable: the covered characters of a value (an Aadhaar number's first eight
 * digits, a PAN's middle seven, a whole value on /redact-pii) appearing in the crop's text,
 * compared after the caller's normalisation (digits only, or letters and digits). Regions with
 * nothing textual to look for (QR codes, suspect words) are covered whole and not re-read.
 */
import { DocumentError } from '../domain/errors.js';
import { pixelBoxAround, scaledRegion } from '../documents/scaled-region.js';
import { frameOfQuad, toFrame, type Quad, type ReadingFrame } from '../domain/geometry.js';
import type { RasterImage } from '../domain/raster.js';
import type { TextLine } from '../domain/text-layer.js';
import type { OcrEngine, ReadPurpose } from '../ocr/types.js';
import {
  boundsOf,
  boundsOfAll,
  boxesMeet,
  scaleQuad,
  unionBox,
  type Box,
} from '../redaction/geometry.js';

/** A covered region, in the raster's pixels, and the characters it must have hidden. */
export interface ResidualTarget {
  readonly quads: readonly Quad[];
  readonly hidden: readonly string[];
}

/** The margin around a region that is read again, in heights of the region. */
const MARGIN = 0.5;
/** The re-read's scale: not the first reading's, so that it is a second look, not a replay. */
const SCALE = 1.25;

/** The part of the raster read again for `quads`: their bounds with the margin, clipped. */
function cropBox(raster: RasterImage, quads: readonly Quad[]): Box {
  const bounds = boundsOfAll(quads);
  // The margin follows the shorter side: a number printed sideways is tall and narrow.
  const margin = MARGIN * Math.min(bounds.x1 - bounds.x0, bounds.y1 - bounds.y0);
  return pixelBoxAround(raster, bounds, margin);
}

/**
 * Regions whose crops meet are read as one crop (values on neighbouring lines of a form): one
 * OCR reading instead of several. Each group: the crop and the indexes of its targets.
 */
function groups(boxes: readonly Box[]): { box: Box; members: number[] }[] {
  const out: { box: Box; members: number[] }[] = [];
  boxes.forEach((box, index) => {
    let merged = { box, members: [index] };
    for (let i = out.length - 1; i >= 0; i -= 1) {
      const other = out[i] as { box: Box; members: number[] };
      if (!boxesMeet(other.box, merged.box)) continue;
      merged = {
        box: unionBox(other.box, merged.box),
        members: [...other.members, ...merged.members],
      };
      out.splice(i, 1);
    }
    out.push(merged);
  });
  return out;
}

/** Whether a quad's text runs up or down the raster (its top edge more vertical than not). */
function runsUpOrDown(quad: Quad): boolean {
  const [tl, tr] = quad;
  return Math.abs(tr.y - tl.y) > Math.abs(tr.x - tl.x);
}

/** A box of the raster in the pixels of the enlarged crop of `crop`. */
const inCrop = (b: Box, crop: Box): Box => ({
  x0: (b.x0 - crop.x0) * SCALE,
  y0: (b.y0 - crop.y0) * SCALE,
  x1: (b.x1 - crop.x0) * SCALE,
  y1: (b.y1 - crop.y0) * SCALE,
});

/**
 * How much of a known line is read again, in its thickness: past the covers' ends along it, so
 * that a digit a cover stops short of is read whole (the crop read afresh has the same margin);
 * across it, a little, for a cover slid off it. The rest of the line is not read: a line of a
 * dense letter is many times longer than the value on it.
 */
const LINE_GROWTH = { along: 0.5, across: 0.1 } as const;
/** How far, in thicknesses of the line, a cover may reach beyond the line it was read on. */
const COVER_SLACK = 0.5;

/** The stretch of the line `frame` under `quads`, grown by LINE_GROWTH (within the line's own growth). */
function stretchUnder(frame: ReadingFrame, quads: readonly Quad[]): ReadingFrame {
  const grow = LINE_GROWTH.along * frame.thickness;
  const along = quads.flatMap((q) => q.map((p) => toFrame(frame, p).along));
  const from = Math.max(-grow, Math.min(...along) - grow);
  const to = Math.min(frame.length + grow, Math.max(...along) + grow);
  const across = LINE_GROWTH.across * frame.thickness;
  return {
    ...frame,
    ox: frame.ox + from * frame.rx - across * frame.dx,
    oy: frame.oy + from * frame.ry - across * frame.dy,
    length: to - from,
    thickness: frame.thickness + 2 * across,
  };
}

/** Whether every corner of `quad` lies on the frame's line, give or take COVER_SLACK. */
function onLine(frame: ReadingFrame, quad: Quad): boolean {
  const slack = COVER_SLACK * frame.thickness;
  return quad.every((p) => {
    const { along, down } = toFrame(frame, p);
    return (
      along >= -slack &&
      along <= frame.length + slack &&
      down >= -slack &&
      down <= frame.thickness + slack
    );
  });
}

/**
 * The stretches of the first reading's lines under the covers `quads`, to be read again; null
 * when a cover lies on none of the lines (its value came from another reading), so that the
 * caller reads the region afresh instead of trusting lines that may not hold it.
 */
function stretchesHolding(
  quads: readonly Quad[],
  lines: readonly ReadingFrame[],
): ReadingFrame[] | null {
  const under = new Map<ReadingFrame, Quad[]>();
  for (const quad of quads) {
    const line = lines.find((frame) => onLine(frame, quad));
    if (line === undefined) return null;
    under.set(line, [...(under.get(line) ?? []), quad]);
  }
  return [...under].map(([line, covers]) => stretchUnder(line, covers));
}

/** How the re-read compares: the characters values are made of, and what OCR reads for. */
export interface ReadFor {
  readonly normalise: (text: string) => string;
  readonly purpose: ReadPurpose;
  /**
   * Whether a line read over a cover shows a value of the kind being masked that must not be
   * there at all (a new valid Aadhaar number where a cover meets other digits): the region then
   * counts as readable too.
   */
  readonly appears?: (line: string) => boolean;
}

/** A group of covers read again: the lines read, and where a box of the raster lies in them. */
interface Reading {
  readonly lines: readonly TextLine[];
  readonly toRead: (b: Box) => Box;
}

/** A group's region cut out with its margin, enlarged and read as a page of its own. */
async function readAfresh(
  raster: RasterImage,
  box: Box,
  quads: readonly Quad[],
  ocr: OcrEngine,
  page: number,
  purpose: ReadPurpose,
): Promise<Reading | null> {
  const region = await scaledRegion(raster, box, SCALE, SCALE);
  if (!region) return null;
  // A crop around values read across the page holds no line up or down it that matters:
  // the detector's second pass over the turned crop (ocr/sideways.ts) is for such values only.
  const sideways = quads.some(runsUpOrDown);
  const read = await ocr.read(region, page, purpose, { sideways });
  return { lines: read.lines, toRead: (b) => inCrop(b, box) };
}

/**
 * Every group read again. The stretches of the first reading's lines under a group's covers are
 * read in one reading of the whole raster for all such groups (its pixels cross to the OCR lane
 * once per page, not once per group); the other groups are read afresh.
 */
async function readGroups(
  raster: RasterImage,
  groupsToRead: readonly { readonly box: Box; readonly quads: readonly Quad[] }[],
  lines: readonly ReadingFrame[],
  ocr: OcrEngine,
  page: number,
  purpose: ReadPurpose,
): Promise<(Reading | null)[]> {
  const stretches = groupsToRead.map((g) => stretchesHolding(g.quads, lines));
  const known = stretches.flatMap((s) => s ?? []);
  // One line back per frame, in their order (ReadHints.lines).
  const read =
    known.length === 0 ? [] : (await ocr.read(raster, page, purpose, { lines: known })).lines;
  // Fail closed: a line missing from the answer must not pass for a line that read nothing.
  if (read.length !== known.length) {
    throw new Error('The OCR engine did not read back one line per known line.');
  }
  const out: (Reading | null)[] = [];
  let next = 0;
  for (const [i, group] of groupsToRead.entries()) {
    const mine = stretches[i];
    if (mine === null || mine === undefined) {
      out.push(await readAfresh(raster, group.box, group.quads, ocr, page, purpose));
      continue;
    }
    out.push({ lines: read.slice(next, next + mine.length), toRead: (b) => b });
    next += mine.length;
  }
  return out;
}

/**
 * The indexes of `targets` whose hidden characters can still be read on `raster`. Reads only
 * the regions, so that its cost grows with the values covered, not with the page. `lines`: the
 * lines of the page's first reading, in the raster's pixels.
 */
export async function readableTargets(
  raster: RasterImage,
  targets: readonly ResidualTarget[],
  ocr: OcrEngine,
  page: number,
  how: ReadFor,
  lines: readonly TextLine[] = [],
): Promise<number[]> {
  const { normalise, purpose, appears } = how;
  const frames = lines.map((line) => frameOfQuad(line.quad, line.orientation));
  const readable: number[] = [];
  const wanted = targets.map((t, index) => ({
    index,
    quads: t.quads,
    hidden: t.hidden.map(normalise).filter((h) => h.length > 0),
  }));
  const checked = wanted.filter((t) => t.hidden.length > 0 && t.quads.length > 0);
  const grouped = groups(checked.map((t) => cropBox(raster, t.quads))).map((group) => ({
    ...group,
    quads: group.members.flatMap((m) => checked[m]?.quads ?? []),
  }));
  const readings = await readGroups(raster, grouped, frames, ocr, page, purpose);
  for (const [i, group] of grouped.entries()) {
    const read = readings[i];
    if (!read) continue;
    // Lines one by one and all together: a value split over two detected boxes still counts.
    const texts = read.lines.map((line) => normalise(line.text));
    const all = [...texts, texts.join('')];
    // A new value counts against the covers its line crosses (not against a line beside them).
    const newValues = appears ? read.lines.filter((line) => appears(line.text)) : [];
    const newValueOver = (targetQuads: readonly Quad[]) =>
      newValues.some((line) =>
        targetQuads.some((q) => boxesMeet(boundsOf(line.quad), read.toRead(boundsOf(q)))),
      );
    for (const member of group.members) {
      const target = checked[member];
      if (!target) continue;
      if (
        target.hidden.some((h) => all.some((text) => text.includes(h))) ||
        newValueOver(target.quads)
      ) {
        readable.push(target.index);
      }
    }
  }
  readable.sort((a, b) => a - b);
  return readable;
}

/** A covered region of one page, in the page's own units: widened in place when it still reads. */
export interface CheckedRegion {
  quads: Quad[];
  readonly hidden: readonly string[];
}

/** One output page to check, and how to see and redo its covers. */
export interface PageCheck {
  readonly regions: readonly CheckedRegion[];
  /** Raster pixels to page units (1 for an image). */
  readonly rasterToPage: number;
  readonly page: number;
  /** The output page's pixels as they are now. */
  readonly render: () => RasterImage | Promise<RasterImage>;
  /** Covers the regions again (after some were widened). */
  readonly apply: () => void;
  /** The lines of the page's first reading, in the raster's pixels (see readableTargets). */
  readonly lines: readonly TextLine[];
}

/**
 * Grows each of a region's covers across its text by a third of its height on either side
 * (a glyph's top or bottom left out), never along it: the characters beside the cover (an
 * Aadhaar number's last four digits, the next word) must stay as they were.
 */
function widen(region: CheckedRegion): void {
  region.quads = region.quads.map((quad) => {
    const [tl, tr, br, bl] = quad;
    const up = { x: (tl.x - bl.x) / 3, y: (tl.y - bl.y) / 3 };
    const move = (p: { x: number; y: number }, k: number) => ({
      x: p.x + k * up.x,
      y: p.y + k * up.y,
    });
    return [move(tl, 1), move(tr, 1), move(br, -1), move(bl, -1)] as unknown as Quad;
  });
}

/**
 * The re-read of one output page: its covered regions are read again; the covers of any whose
 * characters still read are widened and applied again, and if they read even then the document
 * fails (`residual_check_failed`) instead of leaving. Says whether there was anything to check.
 */
export async function rereadPage(check: PageCheck, ocr: OcrEngine, how: ReadFor): Promise<boolean> {
  const { regions, rasterToPage, page } = check;
  if (!regions.some((r) => r.hidden.length > 0)) return false;
  const readable = async () => {
    const targets = regions.map((r) => ({
      quads: r.quads.map((q) => scaleQuad(q, 1 / rasterToPage)),
      hidden: r.hidden,
    }));
    return readableTargets(await check.render(), targets, ocr, page, how, check.lines);
  };
  const first = await readable();
  if (first.length === 0) return true;
  for (const index of first) widen(regions[index] as CheckedRegion);
  check.apply();
  if ((await readable()).length > 0) {
    throw new DocumentError(
      'residual_check_failed',
      'A covered value could still be read in the output, also after its cover was widened, ' +
        'so the document was not returned. A sharper, straighter image may succeed.',
    );
  }
  return true;
}

/** Pixels covered per page: coverQuads by default; the tests' fault injection replaces it. */
export type Cover = (image: RasterImage, quads: readonly Quad[]) => RasterImage;

/**
 * An image page with its regions covered and, given `reread`, read again (rereadPage): the
 * pixels hold the covers as finally widened. `checked`: whether anything was read again.
 */
export async function coverImagePage(
  raster: RasterImage,
  regions: readonly CheckedRegion[],
  page: number,
  cover: Cover,
  reread: {
    readonly ocr: OcrEngine;
    readonly how: ReadFor;
    /** The lines of the page's first reading, in the raster's pixels. */
    readonly lines: readonly TextLine[];
  } | null,
): Promise<{ pixels: RasterImage; checked: boolean }> {
  const coverAll = () =>
    cover(
      raster,
      regions.flatMap((r) => r.quads),
    );
  let pixels = coverAll();
  if (!reread) return { pixels, checked: false };
  const check: PageCheck = {
    regions,
    rasterToPage: 1,
    page,
    render: () => pixels,
    apply: () => {
      pixels = coverAll();
    },
    lines: reread.lines,
  };
  const checked = await rereadPage(check, reread.ocr, reread.how);
  return { pixels, checked };
}
