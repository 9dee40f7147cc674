/**
 * A document worker that misbehaves on request (`options.behaviour`), speaking the real
 * worker's protocol: for the pool's tests of budgets, traps, deaths and back-pressure without
 * needing a document that does each of those things.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { threadId } from 'node:worker_threads';
import { serialiseError, type Outcome, type Task } from '../../../src/services/pool/wire.js';

let poisoned = false;

// The WebAssembly global is not in the project's lib typings.
const { RuntimeError } = (
  globalThis as unknown as { WebAssembly: { RuntimeError: new (message: string) => Error } }
).WebAssembly;

export default async function runTask(task: Task): Promise<Outcome> {
  const options = task.options as {
    behaviour?: string;
    pages?: number;
    ms?: number;
    flag?: string;
  };
  try {
    if (poisoned) return { ok: false, poisoned: true, threadId };
    task.progress.postMessage({ type: 'started' });
    if (task.service === 'warmUp') await sleep(100); // a warm-up round takes a while
    switch (options.behaviour) {
      case 'spin':
        // Blocks the thread the way a runaway MuPDF call would: nothing inside can stop it.
        for (;;) {
          /* spin */
        }
      case 'trap': {
        const { error, retire } = serialiseError(new RuntimeError('unreachable'));
        if (retire) poisoned = true;
        return { ok: false, error, retire, threadId };
      }
      case 'exit-once':
        if (options.flag && !fs.existsSync(options.flag)) {
          fs.writeFileSync(options.flag, '');
          process.exit(1);
        }
        break;
      case 'exit':
        return process.exit(1);
      case 'pages':
        task.progress.postMessage({ type: 'pages', pages: options.pages ?? 0 });
        await sleep(options.ms ?? 0);
        break;
      case 'sleep':
        await sleep(options.ms ?? 0);
        break;
      default:
        break;
    }
    return { ok: true, value: { threadId, bytes: new Uint8Array([1, 2, 3]) } };
  } finally {
    task.ocrPort.close();
    task.progress.close();
  }
}
