/**
 * V8's full collector for the calling thread, exposed as jest's leak detector does it. V8
 * collects when a thread allocates, so a thread that has just done one-off work (a warm-up,
 * loading models) and then waits keeps that work's garbage until its next job; collecting at
 * that moment gives it back at once.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

export function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
