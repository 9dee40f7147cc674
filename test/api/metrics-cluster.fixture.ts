/**
 * Run by test/api/metrics.test.ts: a cluster primary with three workers, each an app with
 * metrics on that answers one request; worker 1 is then scraped, and its answer printed. It does
 * nothing unless the test asks (the test runner loads every file under test/ it finds).
 */
import cluster from 'node:cluster';
import Fastify from 'fastify';
import { installMetrics, serveClusterMetrics } from '../../src/api/metrics.js';
import { loadSettings } from '../../src/config/settings.js';

const WORKERS = 3;

interface Message {
  readonly type?: string;
  readonly text?: string;
}

if (process.env['PARDA_METRICS_CLUSTER_FIXTURE'] !== '1') {
  // Loaded by the test runner on its own: nothing to do.
} else if (cluster.isPrimary) {
  serveClusterMetrics();
  const workers = Array.from({ length: WORKERS }, () => cluster.fork());
  let ready = 0;
  cluster.on('message', (_worker, message: Message) => {
    if (message.type === 'ready') {
      ready += 1;
      if (ready === WORKERS) workers[0]?.send({ type: 'scrape' });
    } else if (message.type === 'scraped') {
      process.stdout.write(message.text ?? '');
      for (const worker of workers) worker.kill();
    }
  });
} else {
  const app = Fastify();
  installMetrics(app, loadSettings({ PARDA_METRICS: 'on' }), {
    status: () => ({
      threads: 2,
      alive: 2,
      busy: 0,
      queued: 0,
      maxQueue: 16,
      saturated: false,
      warmUp: 'done' as const,
    }),
  });
  app.get('/api/v1/account', () => ({}));
  await app.ready();
  await app.inject({ url: '/api/v1/account' });
  process.on('message', (message: Message) => {
    if (message.type !== 'scrape') return;
    void app.inject({ url: '/metrics' }).then((res) => {
      process.send?.({ type: 'scraped', text: res.body });
    });
  });
  // The request is counted once its response has gone out.
  setTimeout(() => process.send?.({ type: 'ready' }), 100);
}
