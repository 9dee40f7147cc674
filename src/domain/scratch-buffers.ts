/**
 * Large scratch buffers lent for one use and kept between documents. A fresh buffer of a few
 * megabytes costs more to touch the first time than the work done in it where the kernel gives
 * freed memory back to the host (a virtual machine with free page reporting, as the bench
 * machines are): a 35 MB RGBA copy of an A4 page took 93 ms of page faults and 10 ms to fill.
 * Buffers not lent for `idleMs` (30 s unless told) are dropped and collected, so an idle service holds none of them.
 */
import { collectGarbage } from './collect-garbage.js';

export interface TypedBuffer {
  readonly length: number;
  subarray(begin: number, end: number): this;
}

export class ScratchBuffers<T extends TypedBuffer> {
  private spare: T[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly make: (length: number) => T,
    private readonly idleMs = 30_000,
    /** Buffers kept at most (one per use that may run at the same time). */
    private readonly keep = 2,
  ) {}

  /**
   * Runs `use` on a buffer of exactly `length` elements (a view of a kept buffer, its contents
   * left from an earlier use: `use` must write every element it reads).
   */
  async with<R>(length: number, use: (buffer: T) => Promise<R>): Promise<R> {
    // The smallest that fits (kept largest first), so that a small use leaves a large one free.
    let at = -1;
    this.spare.forEach((b, i) => {
      if (b.length >= length) at = i;
    });
    const buffer = at >= 0 ? (this.spare.splice(at, 1)[0] as T) : this.make(length);
    try {
      return await use(buffer.subarray(0, length));
    } finally {
      this.giveBack(buffer);
    }
  }

  private giveBack(buffer: T): void {
    this.spare.push(buffer);
    // The largest are the most useful to keep.
    this.spare.sort((a, b) => b.length - a.length);
    this.spare.length = Math.min(this.spare.length, this.keep);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.spare = [];
      // An idle thread allocates nothing, so V8 would not collect them before its next job.
      collectGarbage();
    }, this.idleMs);
    this.timer.unref();
  }
}
