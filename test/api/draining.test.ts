/**
 * A closing app (what SIGTERM starts) finishes the request in flight, answers /health/ready
 * with 503 `draining` and refuses new work with 503, on a connection that is still open.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { backends } from '../helpers/databases.js';
import { jpeg } from '../helpers/fixtures.js';
import { startTestApp } from '../helpers/app.js';
import { fileUpload } from '../helpers/multipart.js';

const [sqlite] = backends();
if (!sqlite) throw new Error('no sqlite backend');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a draining app', () => {
  it('finishes the request in flight and answers what comes after it with 503', async () => {
    const t = await startTestApp(sqlite);
    const { key } = await t.newKey();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    assert.ok(address && typeof address === 'object');

    const form = fileUpload(await jpeg({ width: 64, height: 48 }), 'a.jpg', [
      { name: 'delay_ms', value: '1500' },
    ]);
    const socket = net.connect(address.port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    socket.write(
      `POST /api/v1/test/probe HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\n` +
        `Content-Type: ${form.contentType}\r\nContent-Length: ${form.body.length}\r\n\r\n`,
    );
    socket.write(form.body);
    await sleep(500);
    const closed = t.app.close();
    await sleep(100);
    // Pipelined behind the request in flight, after the app began to close.
    socket.write('GET /health/ready HTTP/1.1\r\nHost: localhost\r\n\r\n');
    socket.write(`GET /api/v1/account HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\n\r\n`);
    await Promise.race([ended, sleep(10_000)]);
    socket.destroy();
    await closed;
    await t.database.cleanup();

    const text = Buffer.concat(received).toString('utf8');
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    assert.equal(statuses[0], 200, text);
    assert.match(text, /"found":0/);
    // Then the readiness check, which says the app is draining; the connection closes after
    // it, so the request for new work behind it is never taken.
    assert.equal(statuses[1], 503, text);
    assert.match(text, /"status":"draining"/);
    assert.match(text, /connection: close/i);
    for (const status of statuses.slice(2)) assert.equal(status, 503, text);
  });
});
