import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OcrClient } from '../../src/ocr/client.js';
import { createPaddleOcr, type PaddleOcr } from '../../src/ocr/index.js';
import { LaneLoads } from '../../src/ocr/lanes.js';
import { splitTasks, type LineReader, type LineTask, type ReadLine } from '../../src/ocr/lines.js';
import { readShared, type HelpResult, type LineHelper } from '../../src/ocr/peers.js';
import { readingFrame, type RotatedRect } from '../../src/domain/geometry.js';
import type { RasterImage } from '../../src/domain/raster.js';
import { Page } from './fixtures.js';

/** A task for a horizontal box `length` px long and 20 px high. */
function task(length: number): LineTask {
  const rect: RotatedRect = { cx: length / 2, cy: 10, width: length, height: 20, ux: 1, uy: 0 };
  return { frames: [readingFrame(rect, 0)] };
}

/** A line whose only character names the task it was read from (its index among the tasks). */
const lineFor = (tasks: readonly LineTask[], t: LineTask, by: string): ReadLine => ({
  frame: t.frames[0] as ReadLine['frame'],
  chars: [{ text: `${tasks.indexOf(t)}${by}`, from: 0, to: 1, confidence: 1 }],
  confidence: 1,
});

/** A reader that reads each task instantly (one event-loop turn), marking lines as its own. */
function localReader(tasks: readonly LineTask[]) {
  const reader = {
    runs: 0,
    columns: 0,
    peerRuns: 0,
    read: async (t: LineTask) => {
      await new Promise((resolve) => setImmediate(resolve));
      reader.runs += 1;
      return lineFor(tasks, t, 'here');
    },
    readAll: async (ts: readonly LineTask[]) => {
      const out: ReadLine[] = [];
      for (const t of ts) out.push(await reader.read(t));
      return out;
    },
  };
  return reader;
}

const image: RasterImage = { width: 1, height: 1, channels: 3, pixels: Buffer.alloc(3) };

/** Reads the tasks with `helper`: each line's mark (task index, where it was read), and the reader. */
async function readWith(tasks: readonly LineTask[], helper: LineHelper) {
  const reader = localReader(tasks);
  const lines = await readShared(
    reader as unknown as LineReader,
    helper,
    image,
    'numbers',
    tasks,
    48,
  );
  return { marks: lines.map((l) => l.chars[0]?.text), reader };
}

describe("OCR lanes: sharing a page's lines", () => {
  it('splits tasks into two shares of about equal work, each in page order', () => {
    const tasks = [task(400), task(100), task(300), task(120), task(80)];
    const { first, second } = splitTasks(tasks, 48, 0);
    assert.deepEqual([...first, ...second].sort(), [0, 1, 2, 3, 4]);
    assert.deepEqual(
      first,
      [...first].sort((a, b) => a - b),
    );
    assert.deepEqual(
      second,
      [...second].sort((a, b) => a - b),
    );
    // Each task costs 40 columns plus its crop's (48 / 20 of its length): 1000, 280, 760, 328
    // and 232; largest first to the lighter share gives 1280 against 1320.
    assert.deepEqual(first, [0, 1]);
    assert.deepEqual(second, [2, 3, 4]);
  });

  it('gives the second share less work when it bears a hand-over cost', () => {
    const tasks = [task(100), task(100)];
    assert.deepEqual(splitTasks(tasks, 48, 0), { first: [0], second: [1] });
    assert.deepEqual(splitTasks(tasks, 48, 10_000), { first: [0, 1], second: [] });
  });

  it("takes the peer's lines in the tasks' order when the peer answers", async () => {
    const tasks = [task(400), task(100), task(300), task(120)];
    const helper: LineHelper = {
      tryRead: (_image, _purpose, handed) =>
        Promise.resolve({
          lines: handed.map((t) => lineFor(tasks, t, 'peer')),
          runs: handed.length,
          columns: 100,
        }),
    };
    const { marks, reader } = await readWith(tasks, helper);
    assert.deepEqual(marks, ['0here', '1here', '2peer', '3peer']);
    assert.equal(reader.peerRuns, 2);
    assert.equal(reader.runs, 4);
  });

  it('reads the whole page itself when no peer is idle, or a peer fails, never answers or answers short', async () => {
    const tasks = [task(400), task(100), task(300), task(120)];
    const helpers: LineHelper[] = [
      { tryRead: () => undefined },
      { tryRead: () => Promise.reject(new Error('A peer lane closed.')) },
      { tryRead: () => new Promise<HelpResult>(() => undefined) },
      { tryRead: () => Promise.resolve({ lines: [], runs: 0, columns: 0 }) },
    ];
    for (const helper of helpers) {
      const { marks, reader } = await readWith(tasks, helper);
      assert.deepEqual(marks, ['0here', '1here', '2here', '3here']);
      assert.equal(reader.peerRuns, 0);
    }
  });

  it('chooses the lane with the fewest documents, then the fewest reads', () => {
    const loads = LaneLoads.create(3);
    assert.equal(loads.leastLoaded(), 0);
    loads.addAssigned(0, 1);
    assert.equal(loads.leastLoaded(), 1);
    loads.addAssigned(1, 1);
    loads.addBusy(2, 1);
    loads.addAssigned(2, 1);
    assert.equal(loads.leastLoaded(), 0);
    loads.addBusy(0, 2);
    assert.equal(loads.leastLoaded(), 1);
  });
});

describe('OCR lanes: an engine of two lanes', () => {
  let two: PaddleOcr;
  let one: PaddleOcr;
  before(async () => {
    [two, one] = await Promise.all([
      createPaddleOcr({ lanes: 2, threads: 1 }),
      createPaddleOcr({ lanes: 1, threads: 1 }),
    ]);
  });
  after(async () => {
    await Promise.all([two.close(), one.close()]);
  });

  const page = new Page(900, 420);
  page.text('2345 6789 0124', 40, 70, { size: 40, bold: true });
  page.text('PAN ABCDE1234F issued 12/05/2015', 40, 140, { size: 28 });
  page.text('Name: Test Example', 40, 210, { size: 26 });
  page.text('VID 9123 4567 8901 2345', 40, 280, { size: 26 });
  page.text('Address: 12 Lake Road, Pune', 40, 350, { size: 26 });

  it('reads a page on both lanes at once, as one lane reads it', async () => {
    const raster = page.raster();
    const alone = await one.readWithTimings(raster, 1, 'text');
    assert.equal(alone.timings.peerRuns, 0);
    assert.ok(alone.text.lines.some((l) => l.text === '2345 6789 0124'));
    assert.equal(two.lanes, 2);
    // A peer that answers late (cold, or a loaded machine) leaves its share to the asking lane;
    // whichever lane reads a line, the page reads the same.
    let peerRuns = 0;
    for (let attempt = 0; attempt < 10 && peerRuns === 0; attempt += 1) {
      const shared = await two.readWithTimings(raster, 1, 'text');
      assert.deepEqual(shared.text, alone.text);
      peerRuns = shared.timings.peerRuns;
    }
    assert.ok(peerRuns > 0, 'the idle lane read part of the lines');
  });

  it('spreads connected documents over the lanes and reads through each', async () => {
    const raster = page.raster();
    const ports = [two.connect(), two.connect()];
    const clients = ports.map((port) => new OcrClient(port));
    try {
      const read = await Promise.all(clients.map((c) => c.readWithTimings(raster, 1, 'text')));
      assert.deepEqual(read[0]?.text, read[1]?.text);
    } finally {
      for (const port of ports) port.close();
    }
    // Once the documents' ports are closed (the lanes hear it in their own time), the lanes
    // are free again and help each other.
    let peerRuns = 0;
    for (let attempt = 0; attempt < 20 && peerRuns === 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      peerRuns = (await two.readWithTimings(raster, 1, 'text')).timings.peerRuns;
    }
    assert.ok(peerRuns > 0);
  });
});
