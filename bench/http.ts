/**
 * What the HTTP benchmarks share: the real application on 127.0.0.1 over a fresh SQLite
 * database, a key without limits, a timed file upload, and percentiles.
 */
import { performance } from 'node:perf_hooks';
import { loadSettings } from '../src/config/settings.js';
import { ocrEngine } from '../src/services/engines.js';
import { DocumentPool, poolLimits } from '../src/services/pool/document-pool.js';
import { startTestApp } from '../test/helpers/app.js';
import { backends } from '../test/helpers/databases.js';
import { fileUpload } from '../test/helpers/multipart.js';

/** The `p`-quantile (0-1) of ascending `sorted` values. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

/**
 * Runs `work` and samples the process's resident memory every 10 ms meanwhile (the server and
 * its OCR worker thread live in this process): the result and the peak in MB.
 */
export async function withPeakRss<T>(
  work: () => Promise<T>,
): Promise<{ result: T; peakMb: number }> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  try {
    const result = await work();
    return { result, peakMb: Math.round(Math.max(peak, process.memoryUsage().rss) / 1_048_576) };
  } finally {
    clearInterval(sampler);
  }
}

export interface BenchServer {
  /**
   * Posts `bytes` as the `file` part to `path`; milliseconds until the whole response was read.
   * A status outside `accepted` (default 200) throws.
   */
  readonly upload: (
    path: string,
    bytes: Buffer,
    filename: string,
    accepted?: readonly number[],
  ) => Promise<number>;
  /** Posts `bytes` as `upload` does, whatever the answer: its status, error code and time. */
  readonly send: (path: string, bytes: Buffer, filename: string) => Promise<Answer>;
  readonly close: () => Promise<void>;
}

export interface Answer {
  readonly status: number;
  /** The `error` field of a JSON error answer; null for any other answer. */
  readonly code: string | null;
  readonly ms: number;
}

export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const [sqlite] = backends().filter((b) => b.name === 'sqlite');
  if (!sqlite) throw new Error('no sqlite backend');
  // Started as `parda serve` starts it: models loaded and the document workers warmed up.
  const settings = loadSettings({ PARDA_LOG_LEVEL: 'silent', ...env });
  const pool = new DocumentPool(settings, poolLimits(settings), ocrEngine);
  await pool.start();
  const t = await startTestApp(sqlite, {
    routes: [],
    pool,
    env: { PARDA_LOG_LEVEL: 'silent', ...env },
  });
  const { key } = await t.newKey({ monthlyQuota: 1_000_000, requestsPerMinute: 1_000_000 });
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const send = async (path: string, bytes: Buffer, filename: string): Promise<Answer> => {
    const form = fileUpload(bytes, filename);
    const started = performance.now();
    const res = await fetch(`${address}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      body: form.body,
    });
    const body = Buffer.from(await res.arrayBuffer());
    const ms = performance.now() - started;
    return { status: res.status, code: errorCode(res.headers.get('content-type'), body), ms };
  };
  return {
    async upload(path, bytes, filename, accepted = [200]) {
      const { status, ms } = await send(path, bytes, filename);
      if (!accepted.includes(status)) throw new Error(`${path}: HTTP ${status}`);
      return ms;
    },
    send,
    close: () => t.close(),
  };
}

function errorCode(contentType: string | null, body: Buffer): string | null {
  if (contentType?.startsWith('application/json') !== true) return null;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    const code = (parsed as { error?: unknown } | null)?.error;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}
