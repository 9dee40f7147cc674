import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { mupdf } from '../../src/documents/mupdf.js';
import { renderPdfPage } from '../../src/documents/render.js';
import { detectionInput } from '../../src/ocr/detection-input.js';
import { foldPaddleGraph } from '../../src/ocr/graph-folding.js';
import { defaultModelPaths } from '../../src/ocr/models.js';
import { PageDetector } from '../../src/ocr/page-detector.js';
import { ort } from '../../src/ocr/runtime.js';
import { pdfWithLines } from '../helpers/fixtures.js';

/** Stand-in sessions that count how often they were opened and released. */
function sessions(failFirst = false) {
  const counts = { opened: 0, released: 0 };
  const open = (): Promise<ort.InferenceSession> => {
    counts.opened += 1;
    if (failFirst && counts.opened === 1) return Promise.reject(new Error('no memory'));
    const session = {
      release: () => {
        counts.released += 1;
        return Promise.resolve();
      },
    };
    return Promise.resolve(session as unknown as ort.InferenceSession);
  };
  return { open, counts };
}

describe('page detector', () => {
  it('keeps one session while pages come and gives it back once they stop', async () => {
    const { open, counts } = sessions();
    const detector = new PageDetector(open, 40);
    await detector.use(() => sleep(1));
    await detector.use(() => sleep(1));
    assert.deepEqual(counts, { opened: 1, released: 0 });
    assert.ok(detector.isOpen);
    await sleep(80);
    assert.deepEqual(counts, { opened: 1, released: 1 });
    assert.ok(!detector.isOpen);
    // The next page opens a new one.
    await detector.use(() => sleep(1));
    assert.deepEqual(counts, { opened: 2, released: 1 });
    await detector.close();
    assert.deepEqual(counts, { opened: 2, released: 2 });
    await assert.rejects(
      detector.use(() => sleep(1)),
      /closed/,
    );
  });

  it('never releases the session under a page being read', async () => {
    const { open, counts } = sessions();
    const detector = new PageDetector(open, 10);
    const reading = detector.use(() => sleep(60));
    await sleep(30);
    await detector.release();
    assert.deepEqual(counts, { opened: 1, released: 0 });
    await reading;
    await sleep(40);
    assert.deepEqual(counts, { opened: 1, released: 1 });
  });

  it('releases the session when the last page read on it ends after closing', async () => {
    const { open, counts } = sessions();
    const detector = new PageDetector(open, 60_000);
    const reading = detector.use(() => sleep(40));
    await sleep(10);
    await detector.close();
    assert.deepEqual(counts, { opened: 1, released: 0 });
    await reading;
    await sleep(1);
    assert.deepEqual(counts, { opened: 1, released: 1 });
  });

  it('opens again for the next page when opening failed', async () => {
    const { open, counts } = sessions(true);
    const detector = new PageDetector(open, 1000);
    await assert.rejects(
      detector.use(() => sleep(1)),
      /no memory/,
    );
    assert.equal(await detector.use(() => Promise.resolve('read')), 'read');
    assert.equal(counts.opened, 2);
    await detector.close();
    assert.equal(counts.released, 1);
  });

  it('gives the map a detector without an arena gives, to the bit', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => ({
      text: `Line ${i}: the account holder's PAN ACUPA7085R and mobile +91 98765 43210`,
      x: 50,
      y: 800 - i * 24,
      size: 10,
    }));
    const pdf = mupdf.Document.openDocument(pdfWithLines([lines]), 'application/pdf').asPDF();
    assert.ok(pdf);
    const image = renderPdfPage(pdf, 0, 150);
    pdf.destroy();
    const region = { left: 0, top: 0, width: image.width, height: image.height };
    const input = await detectionInput(image, region, 0.75);
    const model = foldPaddleGraph(await readFile(defaultModelPaths().detection)).bytes;
    const options = { intraOpNumThreads: 1, logSeverityLevel: 3 as const };
    const mapOf = async (session: ort.InferenceSession) => {
      const tensor = new ort.Tensor('float32', input.data, [1, 3, input.height, input.width]);
      const outputs = await session.run({ [session.inputNames[0] ?? 'x']: tensor });
      return outputs[session.outputNames[0] ?? '']?.data as Float32Array;
    };
    const plain = await ort.InferenceSession.create(model, {
      ...options,
      enableCpuMemArena: false,
    });
    const expected = await mapOf(plain);
    await plain.release();
    const detector = new PageDetector(
      () => ort.InferenceSession.create(model, { ...options, enableMemPattern: false }),
      60_000,
    );
    // The first run fills the arena, the second reuses its buffers.
    for (let run = 0; run < 2; run += 1) {
      assert.deepEqual(await detector.use(mapOf), expected, `run ${run}`);
    }
    await detector.close();
  });
});
