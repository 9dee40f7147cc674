/**
 * The table the folder mode ends with, on stdout: files per status, the pages and time it took,
 * and the failed files by path with their error codes (the messages are in manifest.json).
 */
import { duration } from './progress.js';

export interface RunSummary {
  readonly command: string;
  /** Files per status word, in the manifest's order, for the files processed in this run. */
  readonly statuses: readonly (readonly [string, number])[];
  /** Files `--resume` found done and left alone. */
  readonly skipped: number;
  /** Null when the command's results do not count pages (extract, verify). */
  readonly pages: number | null;
  readonly outputs: number;
  readonly elapsedMs: number;
  readonly failed: readonly { readonly path: string; readonly error: string }[];
  readonly manifest: string;
}

/** Two columns, the first padded; numbers right-aligned, words left-aligned. */
function table(rows: readonly (readonly [string, string])[], numbers: boolean): string[] {
  const width = Math.max(...rows.map(([label]) => label.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  return rows.map(([label, value]) =>
    `  ${label.padEnd(width)}  ${numbers ? value.padStart(valueWidth) : value}`.trimEnd(),
  );
}

export function formatSummary(summary: RunSummary): string {
  const files = summary.statuses.reduce((n, [, count]) => n + count, 0) + summary.skipped;
  const lines = [
    `parda ${summary.command}: ${files} file(s) in ${duration(summary.elapsedMs)}`,
    ...table(
      [
        ...summary.statuses.map(([status, count]) => [status, String(count)] as const),
        ['skipped (--resume)', String(summary.skipped)],
        ['total', String(files)],
        ...(summary.pages === null ? [] : [['pages processed', String(summary.pages)] as const]),
        ['outputs written', String(summary.outputs)],
      ],
      true,
    ),
  ];
  if (summary.failed.length > 0) {
    lines.push(
      'Failed:',
      ...table(
        summary.failed.map((f) => [f.path, f.error] as const),
        false,
      ),
    );
  }
  lines.push(`Manifest: ${summary.manifest}`);
  return lines.join('\n');
}
