import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ERROR_STATUS } from '../../src/api/errors.js';
import { backends } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import * as fixtures from '../helpers/fixtures.js';
import { fileUpload } from '../helpers/multipart.js';

const [sqlite] = backends();

describe('the error model', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    if (!sqlite) throw new Error('no sqlite backend');
    t = await startTestApp(sqlite);
    ({ key } = await t.newKey());
  });
  after(() => t.close());

  it('500 processing_failed for an unexpected failure: no stack, no content, logged with the request id', async () => {
    const form = fileUpload(await fixtures.jpeg(), 'card.jpg', [{ name: 'fail', value: '1' }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/probe',
      headers: {
        'x-api-key': key,
        'content-type': form.contentType,
        'x-request-id': 'req-500-test',
      },
      payload: form.body,
    });
    assert.equal(res.statusCode, 500);
    const body = res.json<Record<string, string>>();
    assert.deepEqual(Object.keys(body).sort(), ['error', 'message']);
    assert.equal(body['error'], 'processing_failed');
    assert.doesNotMatch(res.body, /2345|engine failed|at .*\.js/);
    assert.equal(res.headers['x-request-id'], 'req-500-test');
    const failure = t.logs.find((line) => line.includes('request failed unexpectedly'));
    assert.ok(failure, 'the failure is logged');
    assert.match(failure, /req-500-test/);
    assert.ok(!t.logs.some((line) => /2345|engine failed/.test(line)), 'no content in the logs');
  });

  it('replaces a request id that is unsafe to log', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'bad id\nwith newline' },
    });
    assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('maps schema validation failures to 422 invalid_request', async () => {
    for (const query of ['category=secret', 'country=India', 'unknown=1']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/global/entity-types?${query}`,
      });
      assert.equal(res.statusCode, 422, query);
      assert.equal(res.json<{ error: string }>().error, 'invalid_request');
    }
  });

  it('answers unknown routes with 404 not_found in the same body', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(Object.keys(res.json()).sort(), ['error', 'message']);
    assert.equal(res.json<{ error: string }>().error, 'not_found');
  });

  it('answers a wrong method with 405 and the methods the path takes in Allow', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/mask-aadhaar' });
    assert.equal(res.statusCode, 405);
    assert.equal(res.headers['allow'], 'POST');
    assert.equal(res.json<{ error: string }>().error, 'method_not_allowed');
    const health = await t.app.inject({ method: 'DELETE', url: '/health?x=1' });
    assert.equal(health.statusCode, 405);
    assert.equal(health.headers['allow'], 'GET, HEAD');
  });

  it('415 for a raw document body says to send multipart', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/mask-aadhaar',
      headers: { 'x-api-key': key, 'content-type': 'image/jpeg' },
      payload: await fixtures.jpeg(),
    });
    assert.equal(res.statusCode, 415);
    const body = res.json<{ error: string; message: string }>();
    assert.equal(body.error, 'unsupported_media_type');
    assert.match(body.message, /multipart\/form-data with a "file" part/);
  });

  it('415 for a form sent to the JSON text endpoint says to send JSON', async () => {
    const form = fileUpload(Buffer.from('hello'), 'text.txt', [{ name: 'text', value: 'hi' }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/global/redact/text',
      headers: { 'x-api-key': key, 'content-type': form.contentType },
      payload: form.body,
    });
    assert.equal(res.statusCode, 415);
    const body = res.json<{ error: string; message: string }>();
    assert.equal(body.error, 'unsupported_media_type');
    assert.match(body.message, /takes JSON, not a form/);
  });

  it('keeps every error code on the status the interface gives it', () => {
    assert.equal(ERROR_STATUS.missing_api_key, 401);
    assert.equal(ERROR_STATUS.invalid_api_key, 401);
    assert.equal(ERROR_STATUS.key_disabled, 403);
    assert.equal(ERROR_STATUS.reveal_not_entitled, 403);
    assert.equal(ERROR_STATUS.file_too_large, 413);
    assert.equal(ERROR_STATUS.unsupported_file_type, 422);
    assert.equal(ERROR_STATUS.no_document_detected, 422);
    assert.equal(ERROR_STATUS.rate_limited, 429);
    assert.equal(ERROR_STATUS.quota_exceeded, 429);
    assert.equal(ERROR_STATUS.processing_failed, 500);
  });
});
