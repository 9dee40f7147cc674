/**
 * The detector session for the content regions of big pages (scans, rendered PDF pages): kept
 * while pages keep coming, released after a while without one.
 *
 * onnxruntime's memory arena keeps the buffers a run has touched. Without it every run
 * allocates and touches fresh memory, and the kernel's zeroing of those pages made a page's
 * detection three to four times as slow (a 1248 x 1760 input on one thread: 1.2-1.5 s, against
 * 320-360 ms once the arena holds its buffers; the map is the same to the bit). With it, the
 * buffers of the largest page read stay in the process. So the session holds its arena while
 * pages come and is released `idleMs` after the last one, which gives the memory back; the next
 * page opens a new one, whose first run allocates afresh. It is opened without onnxruntime's
 * memory pattern, which doubled what the arena keeps (555 against 875 MB of process after that
 * input) and made no run faster.
 */
import type { ort } from './runtime.js';

export class PageDetector {
  private session: Promise<ort.InferenceSession> | undefined;
  private users = 0;
  private idle: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly open: () => Promise<ort.InferenceSession>,
    private readonly idleMs: number,
  ) {}

  /** Whether a session is open now (for tests). */
  get isOpen(): boolean {
    return this.session !== undefined;
  }

  /** Runs `work` on the session, opening it if need be. */
  async use<T>(work: (session: ort.InferenceSession) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('The page detector is closed.');
    clearTimeout(this.idle);
    this.users += 1;
    try {
      this.session ??= this.open().catch((error: unknown) => {
        this.session = undefined; // the next page tries again
        throw error;
      });
      return await work(await this.session);
    } finally {
      this.users -= 1;
      this.releaseWhenIdle();
    }
  }

  private releaseWhenIdle(): void {
    if (this.users > 0) return;
    // Closed while a page was read: close() left the session to its last reader.
    if (this.closed) {
      void this.release();
      return;
    }
    this.idle = setTimeout(() => void this.release(), this.idleMs);
    this.idle.unref();
  }

  /** Releases the session (its arena with it) unless a page is being read with it. */
  async release(): Promise<void> {
    if (this.users > 0) return;
    clearTimeout(this.idle);
    const session = this.session;
    this.session = undefined;
    // A session that failed to open or to release has nothing more to give back.
    if (session) await (await session.catch(() => undefined))?.release().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.release();
  }
}
