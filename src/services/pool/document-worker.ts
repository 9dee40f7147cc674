/**
 * A document worker (a piscina thread): runs one file service at a time, off the HTTP thread,
 * with its own MuPDF, sharp and ZXing. OCR goes to the process's one OCR engine through the
 * port each task brings. After a WebAssembly trap the worker answers every later task with
 * `poisoned` until the pool retires it: a trapped MuPDF is never used again.
 */
import os from 'node:os';
import { threadId, workerData } from 'node:worker_threads';
import type { Settings } from '../../config/settings.js';
import { collectGarbage } from '../../domain/collect-garbage.js';
import { loadRulePlugins } from '../../identifiers/plugins.js';
import { OcrClient } from '../../ocr/client.js';
import { serviceContext } from '../context.js';
import {
  inProcessServices,
  type DocumentServices,
  type ServiceName,
} from '../document-services.js';
import { WORKER_NICE } from './priority.js';
import { warmUp } from './warm-up.js';
import { fromWireOptions, serialiseError, type Outcome, type Progress, type Task } from './wire.js';

const { settings } = workerData as { settings: Settings };
// Below the HTTP thread when the cores are contended, so that /health and request parsing stay
// prompt. On Linux a thread's nice value is its own: this lowers this thread alone.
try {
  os.setPriority(WORKER_NICE);
} catch {
  // A platform that refuses it keeps the default priority.
}
// Every process registers the operator's rule plugins; this thread is a process of its own to them.
await loadRulePlugins(settings.rulePlugins);
const base = serviceContext(settings);
let poisoned = false;

export default async function runTask(task: Task): Promise<Outcome> {
  const { ocrPort, progress } = task;
  try {
    if (poisoned) return { ok: false, poisoned: true, threadId };
    const post = (message: Progress) => {
      progress.postMessage(message);
    };
    post({ type: 'started' });
    const ocr = new OcrClient(ocrPort);
    const context = {
      ...base,
      ocr: () => Promise.resolve(ocr),
      onIntake: (pages: number) => {
        post({ type: 'pages', pages });
      },
    };
    if (task.service === 'warmUp') {
      await warmUp(context);
      // The warm-up's garbage (about 50 MB a thread) is given back before the server says ready.
      collectGarbage();
      return { ok: true, value: null };
    }
    const services = inProcessServices(context);
    const service: ServiceName = task.service;
    // The options were checked by the route that sent them; the wire loses their static type.
    const call = services[service].bind(services) as (
      upload: Task['upload'],
      options: unknown,
    ) => ReturnType<DocumentServices[ServiceName]>;
    // Structured clone delivers the bytes as a plain Uint8Array; the services expect a Buffer.
    const { bytes } = task.upload;
    const upload = {
      ...task.upload,
      bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
    };
    const value = await call(upload, fromWireOptions(task.options));
    return { ok: true, value };
  } catch (error) {
    const { error: wire, retire } = serialiseError(error);
    if (retire) poisoned = true;
    return { ok: false, error: wire, retire, threadId };
  } finally {
    ocrPort.close();
    progress.close();
  }
}
