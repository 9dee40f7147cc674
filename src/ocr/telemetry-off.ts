/**
 * Turns ONNX Runtime's telemetry off, before the runtime is loaded. Its Linux and macOS builds
 * since 1.29 report to Microsoft by default (a device identifier, the operating system, the
 * executable's path, the models' execution providers, counts and durations of runs), queue
 * those events under ~/.cache/Microsoft and leave `.ses` and `mat-debug-PID.log` files in the
 * temporary folder. A privacy service sends nothing anywhere, so Parda always sets the
 * runtime's documented opt-out, ORT_DISABLE_TELEMETRY=1, which it reads once, when it starts.
 *
 * Only the main thread can set the process's environment (a worker thread's process.env is its
 * own copy, unseen by native code), so this module is imported by the code that starts threads
 * which load the runtime (the document pool, the OCR lanes) as well as by the one module that
 * loads it (runtime.ts). A thread that finds the setting missing refuses to load the runtime.
 */
import { isMainThread } from 'node:worker_threads';

export const TELEMETRY_OPT_OUT = 'ORT_DISABLE_TELEMETRY';

if (process.env[TELEMETRY_OPT_OUT] !== '1') {
  if (!isMainThread) {
    throw new Error(
      `${TELEMETRY_OPT_OUT}=1 is not set for this thread: ONNX Runtime would report telemetry`,
    );
  }
  process.env[TELEMETRY_OPT_OUT] = '1';
}
