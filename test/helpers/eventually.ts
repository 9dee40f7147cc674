/** Retries an assertion until it holds or a deadline passes: for work done after a response. */
import { setTimeout as sleep } from 'node:timers/promises';

export async function eventually<T>(check: () => Promise<T>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(20);
    }
  }
}
