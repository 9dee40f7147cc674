/**
 * Plain-text redaction of the global identifier types: Parda's `redactText` (token mode, the
 * types on by default, no countries) against the two most used JavaScript PII redactors,
 * `@openredaction/openredaction` and `redact-pii` (its SyncRedactor; Google DLP is never
 * used), each with its defaults, all in this process. The text is the seeded global corpus
 * (test/fixtures/global), about 5 MB of prose lines, each holding one valid value or one
 * negative. Prints, per engine, throughput over the whole text and precision and recall on a
 * fixed sample of 3,000 lines, then recall per type. Asserts nothing; no network.
 *   node dist/bench/text.js
 *
 * Throughput: one call over the whole text, unless a probe on a 128 KB and a 512 KB prefix
 * predicts that call would take longer than WHOLE_BUDGET_S (an engine whose time grows faster
 * than the text); then the engine is called line by line in a loop, stopped after
 * LOOP_BUDGET_S, and the MB/s is over the part it got through. The table says which.
 *
 * Accuracy, per sample line: a value counts as found when its printed form no longer appears
 * in the engine's output for that line; a negative counts as a false positive when its printed
 * form no longer appears. Precision = found / (found + false positives).
 */
import { performance } from 'node:perf_hooks';
import { OpenRedaction } from '@openredaction/openredaction';
import { SyncRedactor } from 'redact-pii';
import { resolveEntityTypes, MASK_KEEP_DEFAULT } from '../src/services/global-options.js';
import { redactText } from '../src/services/redact-text.js';
import {
  GLOBAL_TYPES,
  NEGATIVE_KINDS,
  globalCorpusLines,
  type CorpusLine,
} from '../test/fixtures/global/values.js';

const SEED = 20_250_601;
const TARGET_BYTES = 5_000_000;
const SAMPLE_LINES = 3000;
const WHOLE_BUDGET_S = 120;
const LOOP_BUDGET_S = 180;
const SAMPLE_BUDGET_S = 180;
const MB = 1_000_000;

interface Engine {
  readonly name: string;
  readonly redact: (text: string) => string;
}

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

/** The corpus lines, as many as make TARGET_BYTES of text joined by newlines. */
function corpus(): CorpusLine[] {
  const probe = globalCorpusLines(SEED, 2000);
  const average = probe.reduce((n, l) => n + bytesOf(l.line) + 1, 0) / probe.length;
  // The first lines of a longer run are the same lines: draw a little more and cut.
  const all = globalCorpusLines(SEED, Math.ceil((TARGET_BYTES / average) * 1.1));
  const out: CorpusLine[] = [];
  let size = 0;
  for (const l of all) {
    if (size >= TARGET_BYTES) break;
    out.push(l);
    size += bytesOf(l.line) + 1;
  }
  return out;
}

/** Parda's text redaction over `rules`, as the endpoint runs it (token mode, no countries). */
const pardaEngine = (name: string, rules: ReturnType<typeof resolveEntityTypes>): Engine => ({
  name,
  redact: (text) =>
    redactText(text, {
      rules,
      countries: [],
      mode: 'token',
      maskKeep: MASK_KEEP_DEFAULT,
      // The service caps a request at PARDA_MAX_TEXT_MB; the function takes what it is given.
      maxBytes: Number.MAX_SAFE_INTEGER,
    }).redactedText,
});

function engines(): Engine[] {
  const parda = pardaEngine('Parda (default types)', resolveEntityTypes(undefined, []));
  // SWIFT_BIC and DATE_OF_BIRTH are off by default; asked for, they are run too.
  const pardaAll = pardaEngine('Parda (all 25 types)', resolveEntityTypes(GLOBAL_TYPES, []));
  // Defaults, except the learning store: it would read and write .openredaction/ in the
  // working directory, which detection results must not depend on.
  const openRedaction = new OpenRedaction({ enableLearning: false });
  const open: Engine = {
    name: '@openredaction/openredaction 1.0.4',
    redact: (text) => openRedaction.detect(text).redacted,
  };
  const syncRedactor = new SyncRedactor();
  const redactPii: Engine = {
    name: 'redact-pii 3.4.0 (SyncRedactor)',
    redact: (text) => syncRedactor.redact(text),
  };
  return [parda, pardaAll, open, redactPii];
}

function seconds(run: () => void): number {
  const t0 = performance.now();
  run();
  return (performance.now() - t0) / 1000;
}

/** The first lines of `lines` making at least `bytes`, joined. */
function prefix(lines: readonly CorpusLine[], bytes: number): string {
  const out: string[] = [];
  let size = 0;
  for (const l of lines) {
    if (size >= bytes) break;
    out.push(l.line);
    size += bytesOf(l.line) + 1;
  }
  return out.join('\n');
}

interface Throughput {
  readonly mbPerS: number;
  readonly how: string;
}

function throughput(engine: Engine, lines: readonly CorpusLine[], text: string): Throughput {
  engine.redact(prefix(lines, 16_000)); // warm-up
  const small = prefix(lines, 128_000);
  const large = prefix(lines, 512_000);
  const tSmall = seconds(() => engine.redact(small));
  // Time growing faster than the text (a string rebuilt per finding, say) shows between the
  // two prefixes; the whole text is predicted with that growth, and at least linear growth.
  const tLarge = tSmall > 5 ? Infinity : seconds(() => engine.redact(large));
  const growth = Math.max(1, Math.log(tLarge / tSmall) / Math.log(bytesOf(large) / bytesOf(small)));
  const predicted = tLarge * (bytesOf(text) / bytesOf(large)) ** growth;
  if (predicted <= WHOLE_BUDGET_S) {
    const t = seconds(() => engine.redact(text));
    return { mbPerS: bytesOf(text) / MB / t, how: 'one call, whole text' };
  }
  const deadline = performance.now() + LOOP_BUDGET_S * 1000;
  let done = 0;
  let size = 0;
  const t = seconds(() => {
    for (const l of lines) {
      engine.redact(l.line);
      done += 1;
      size += bytesOf(l.line) + 1;
      if (performance.now() > deadline) break;
    }
  });
  const share =
    done === lines.length
      ? 'all lines'
      : `${((100 * size) / bytesOf(text)).toFixed(0)}% of the text in ${LOOP_BUDGET_S} s`;
  return {
    mbPerS: size / MB / t,
    how: `line by line (whole text predicted ${Number.isFinite(predicted) ? `${predicted.toFixed(0)} s` : 'too slow'}; ${share})`,
  };
}

interface Accuracy {
  readonly lines: number;
  readonly values: number;
  readonly found: number;
  readonly negatives: number;
  readonly flagged: number;
  readonly byType: Map<string, { total: number; found: number }>;
  readonly byKind: Map<string, { total: number; flagged: number }>;
}

function accuracy(engine: Engine, sample: readonly CorpusLine[]): Accuracy {
  const byType = new Map(GLOBAL_TYPES.map((t) => [t as string, { total: 0, found: 0 }]));
  const byKind = new Map(NEGATIVE_KINDS.map((k) => [k as string, { total: 0, flagged: 0 }]));
  const deadline = performance.now() + SAMPLE_BUDGET_S * 1000;
  let lines = 0;
  for (const { line, item } of sample) {
    if (performance.now() > deadline) break;
    const gone = !engine.redact(line).includes(item.printed);
    lines += 1;
    if (item.role === 'value') {
      const row = byType.get(item.type) as { total: number; found: number };
      row.total += 1;
      if (gone) row.found += 1;
    } else {
      const row = byKind.get(item.kind) as { total: number; flagged: number };
      row.total += 1;
      if (gone) row.flagged += 1;
    }
  }
  const sum = <T>(m: Map<string, T>, f: (v: T) => number) =>
    [...m.values()].reduce((n, v) => n + f(v), 0);
  return {
    lines,
    values: sum(byType, (v) => v.total),
    found: sum(byType, (v) => v.found),
    negatives: sum(byKind, (v) => v.total),
    flagged: sum(byKind, (v) => v.flagged),
    byType,
    byKind,
  };
}

const pct = (part: number, whole: number) =>
  whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`;

const lines = corpus();
const text = lines.map((l) => l.line).join('\n');
const stride = lines.length / SAMPLE_LINES;
const sample = Array.from(
  { length: SAMPLE_LINES },
  (_, i) => lines[Math.floor(i * stride)] as CorpusLine,
);
console.log(
  `Corpus: seed ${SEED}, ${lines.length} lines, ${(bytesOf(text) / MB).toFixed(2)} MB; ` +
    `sample: ${sample.length} lines ` +
    `(${sample.filter((l) => l.item.role === 'value').length} values, ` +
    `${sample.filter((l) => l.item.role === 'negative').length} negatives).`,
);

const results: { engine: Engine; speed: Throughput; acc: Accuracy }[] = [];
for (const engine of engines()) {
  const speed = throughput(engine, lines, text);
  const acc = accuracy(engine, sample);
  results.push({ engine, speed, acc });
}

console.table(
  results.map(({ engine, speed, acc }) => {
    const precision = acc.found / (acc.found + acc.flagged);
    const recall = acc.found / acc.values;
    return {
      engine: engine.name,
      'MB/s': speed.mbPerS.toFixed(2),
      timed: speed.how,
      'sample lines': acc.lines,
      'values found': `${acc.found}/${acc.values}`,
      'negatives hit': `${acc.flagged}/${acc.negatives}`,
      precision: pct(acc.found, acc.found + acc.flagged),
      recall: pct(acc.found, acc.values),
      F1: Number.isFinite(precision)
        ? ((2 * precision * recall) / (precision + recall)).toFixed(3)
        : 'n/a',
    };
  }),
);

const defaults = new Set(resolveEntityTypes(undefined, []).map((r) => r.type));
const short = (name: string) => (name.startsWith('Parda') ? name : (name.split(' ')[0] as string));
console.log('Recall per type on the sample (values found / values):');
console.table(
  Object.fromEntries(
    GLOBAL_TYPES.map((type) => [
      type,
      {
        'Parda default': defaults.has(type) ? 'on' : 'off',
        ...Object.fromEntries(
          results.map(({ engine, acc }) => {
            const row = acc.byType.get(type) ?? { total: 0, found: 0 };
            return [short(engine.name), `${pct(row.found, row.total)} (${row.found}/${row.total})`];
          }),
        ),
      },
    ]),
  ),
);
console.log('False positives per negative kind on the sample (negatives altered / negatives):');
console.table(
  Object.fromEntries(
    NEGATIVE_KINDS.map((kind) => [
      kind,
      Object.fromEntries(
        results.map(({ engine, acc }) => {
          const row = acc.byKind.get(kind) ?? { total: 0, flagged: 0 };
          return [short(engine.name), `${row.flagged}/${row.total}`];
        }),
      ),
    ]),
  ),
);
