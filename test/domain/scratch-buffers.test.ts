import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ScratchBuffers } from '../../src/domain/scratch-buffers.js';

/** A pool whose buffers are counted as they are made. */
function countingPool(idleMs: number, keep?: number) {
  const made: Uint8Array[] = [];
  const pool = new ScratchBuffers(
    (length) => {
      const buffer = new Uint8Array(length);
      made.push(buffer);
      return buffer;
    },
    idleMs,
    keep,
  );
  return { pool, made };
}

describe('scratch buffers', () => {
  it('lends a view of exactly the length asked for, and lends a kept buffer again', async () => {
    const { pool, made } = countingPool(60_000);
    const first = await pool.with(100, async (b) => [b.length, b.buffer] as const);
    const second = await pool.with(60, async (b) => [b.length, b.buffer] as const);
    assert.deepEqual([first[0], second[0]], [100, 60]);
    assert.equal(made.length, 1);
    assert.equal(second[1], first[1]);
    // A longer one than any kept is made afresh.
    await pool.with(200, async (b) => b.length);
    assert.equal(made.length, 2);
  });

  it('never lends one buffer to two uses at once', async () => {
    const { pool, made } = countingPool(60_000);
    const buffers = await Promise.all(
      [1, 2, 3].map((i) =>
        pool.with(50, async (b) => {
          b.fill(i);
          await sleep(5);
          // Nothing else wrote into it while this use held it.
          assert.ok(b.every((v) => v === i));
          return b.buffer;
        }),
      ),
    );
    assert.equal(new Set(buffers).size, 3);
    assert.equal(made.length, 3);
  });

  it('gives a buffer back when its use fails', async () => {
    const { pool, made } = countingPool(60_000);
    await assert.rejects(
      pool.with(10, async () => {
        throw new Error('use failed');
      }),
      /use failed/,
    );
    await pool.with(10, async () => undefined);
    assert.equal(made.length, 1);
  });

  it('keeps at most `keep` buffers, the largest, and drops them all once idle', async () => {
    const { pool, made } = countingPool(30, 2);
    await Promise.all([10, 20, 30].map((n) => pool.with(n, () => sleep(1))));
    assert.equal(made.length, 3);
    // 30 and 20 were kept: a use of 25 needs no new buffer, and then one of 11 takes the 20.
    await Promise.all([pool.with(25, () => sleep(1)), pool.with(11, () => sleep(1))]);
    assert.equal(made.length, 3);
    await sleep(80);
    await pool.with(10, async () => undefined);
    assert.equal(made.length, 4);
  });
});
