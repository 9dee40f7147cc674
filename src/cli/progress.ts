/**
 * Progress of the folder mode, on stderr (stdout is kept for the summary, so that it can be
 * piped). On a terminal, one line redrawn in place (done/total, failed, elapsed, ETA), with each
 * failed file printed above it as it fails; elsewhere (a log, a CI job), one plain line per
 * finished file, which reads well in a file and can be followed with `tail -f`. Lines name
 * files, statuses and error codes only: never anything read from a document.
 */

/** What progress writes to: process.stderr, or a stand-in in tests. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): unknown;
}

export interface FinishedFile {
  /** The input's path below the inputs' common folder. */
  readonly path: string;
  readonly status: string;
  readonly output: string | null;
  readonly error?: string;
}

/** `4.2 s` under a minute, `3:07` or `1:02:09` above. */
export function duration(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

const CLEAR_LINE = '\r\x1b[2K';
/** How often the terminal line is redrawn while no file finishes (the elapsed time moves). */
const TICK_MS = 1000;

export class Progress {
  private done = 0;
  private failed = 0;
  private readonly started: number;
  private readonly ticker: NodeJS.Timeout | null = null;

  constructor(
    private readonly total: number,
    private readonly stream: ProgressStream = process.stderr,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
    if (this.live) {
      this.ticker = setInterval(() => {
        this.redraw();
      }, TICK_MS);
      // The ticker alone must not keep the process alive.
      this.ticker.unref();
      this.redraw();
    }
  }

  private get live(): boolean {
    return this.stream.isTTY === true && this.total > 0;
  }

  finished(file: FinishedFile): void {
    this.done += 1;
    if (file.error !== undefined) this.failed += 1;
    const outcome =
      file.error !== undefined
        ? `${file.status}  ${file.path} (${file.error})`
        : `${file.status}  ${file.path}${file.output === null ? '' : ` -> ${file.output}`}`;
    if (!this.live) {
      this.stream.write(`[${this.done}/${this.total}] ${outcome}\n`);
      return;
    }
    // On a terminal only failures get a line of their own; the rest is the counter.
    if (file.error !== undefined) this.stream.write(`${CLEAR_LINE}${outcome}\n`);
    this.redraw();
  }

  /** The line as it stands: `12/40 done, 1 failed, 0:42 elapsed, ETA 1:10`. */
  line(): string {
    const elapsed = this.now() - this.started;
    const remaining = this.total - this.done;
    const eta =
      this.done === 0
        ? '-'
        : remaining === 0
          ? '0.0 s'
          : duration((elapsed / this.done) * remaining);
    return `${this.done}/${this.total} done, ${this.failed} failed, ${duration(elapsed)} elapsed, ETA ${eta}`;
  }

  private redraw(): void {
    const text = this.line();
    const width = this.stream.columns ?? 0;
    this.stream.write(CLEAR_LINE + (width > 1 ? text.slice(0, width - 1) : text));
  }

  /** Stops the redrawing; the terminal line is left with its final counts. */
  end(): void {
    if (this.ticker) clearInterval(this.ticker);
    if (this.live) {
      this.redraw();
      this.stream.write('\n');
    }
  }
}
