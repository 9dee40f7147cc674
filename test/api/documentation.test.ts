import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import { operationIdOf } from '../../src/api/documentation.js';
import { backends } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const [sqlite] = backends();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

interface Schema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  default?: unknown;
  description?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}
interface Operation {
  operationId?: string;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<
    string,
    { headers?: Record<string, { schema: Schema & { schema?: unknown } }>; content?: object }
  >;
}
interface OpenApi {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

/** The file endpoints, each with its document part and its text parts in order. */
const UPLOADS: Record<string, [string, string[]]> = {
  '/api/v1/mask-aadhaar': ['file', ['output_format', 'mask_qr', 'pdf_password']],
  '/api/v1/mask-pan': ['file', ['output_format', 'mask_qr', 'pdf_password']],
  '/api/v1/bulk/mask-aadhaar': ['files', ['output_format', 'mask_qr', 'pdf_password']],
  '/api/v1/bulk/mask-pan': ['files', ['output_format', 'mask_qr', 'pdf_password']],
  '/api/v1/extract-aadhaar': [
    'file',
    ['include_confidence', 'reveal_aadhaar_number', 'pdf_password'],
  ],
  '/api/v1/extract-pan': ['file', ['include_confidence', 'pdf_password']],
  '/api/v1/verify-document': ['file', ['pdf_password']],
  '/api/v1/redact-pii': ['file', ['types', 'pdf_password']],
  '/api/v1/bulk/anonymise': ['files', ['types', 'pdf_password']],
  '/api/v1/global/detect': ['file', ['entity_types', 'countries', 'pdf_password']],
  '/api/v1/global/redact': [
    'file',
    [
      'mode',
      'entity_types',
      'countries',
      'mask_keep',
      'strip_metadata',
      'response_mode',
      'pdf_password',
    ],
  ],
  '/api/v1/global/batch/redact': [
    'files',
    ['mode', 'entity_types', 'countries', 'mask_keep', 'strip_metadata', 'pdf_password'],
  ],
};

describe('the OpenAPI document at /docs/json', () => {
  let t: TestApp;
  let doc: OpenApi;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-openapi-'));
  before(async () => {
    if (!sqlite) throw new Error('no sqlite backend');
    t = await startTestApp(sqlite);
    const response = await t.app.inject({ method: 'GET', url: '/docs/json' });
    assert.equal(response.statusCode, 200);
    doc = response.json<OpenApi>();
  });
  after(async () => {
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([url, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ url, method, operation })),
    );

  it('passes a maintained OpenAPI validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as never);
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
    assert.equal(doc.info.title, 'Parda');
    assert.match(doc.info.version, /^\d+\.\d+\.\d+$/);
  });

  it('gives every operation a unique operationId', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    assert.ok(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]*$/.test(id)));
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(doc.paths['/api/v1/mask-aadhaar']?.post?.operationId, 'maskAadhaar');
    assert.equal(doc.paths['/api/v1/bulk/anonymise']?.post?.operationId, 'bulkAnonymise');
    assert.equal(doc.paths['/api/v1/account']?.get?.operationId, 'getAccount');
    assert.equal(operationIdOf('POST', '/api/v1/global/batch/redact'), 'globalBatchRedact');
    assert.equal(operationIdOf('GET', '/health'), 'getHealth');
  });

  it('describes every file endpoint as a typed multipart form', () => {
    for (const [url, [documentPart, parts]] of Object.entries(UPLOADS)) {
      const body = doc.paths[url]?.post?.requestBody;
      assert.ok(body, `${url} has a requestBody`);
      assert.deepEqual(Object.keys(body.content), ['multipart/form-data'], url);
      const schema = body.content['multipart/form-data']?.schema as Schema;
      assert.deepEqual(schema.required, [documentPart], url);
      assert.deepEqual(Object.keys(schema.properties ?? {}), [documentPart, ...parts], url);
      const document = schema.properties?.[documentPart];
      const file = documentPart === 'files' ? document?.items : document;
      assert.deepEqual([file?.type, file?.format], ['string', 'binary'], url);
      for (const [name, part] of Object.entries(schema.properties ?? {})) {
        assert.ok(part.type, `${url} ${name} has a type`);
        assert.ok((part.description ?? '').length > 10, `${url} ${name} is described`);
      }
    }
    const mask = doc.paths['/api/v1/mask-aadhaar']?.post?.requestBody?.content[
      'multipart/form-data'
    ]?.schema.properties as Record<string, Schema>;
    assert.deepEqual(mask.output_format, {
      type: 'string',
      enum: ['same', 'jpg', 'pdf'],
      default: 'same',
      description: mask.output_format?.description,
    });
    const global = doc.paths['/api/v1/global/redact']?.post?.requestBody?.content[
      'multipart/form-data'
    ]?.schema.properties as Record<string, Schema>;
    assert.deepEqual([global.mask_keep?.type, global.mask_keep?.default], ['integer', 4]);
    assert.deepEqual(
      [global.strip_metadata?.type, global.strip_metadata?.default],
      ['boolean', true],
    );
    assert.deepEqual(global.mode?.enum, ['box', 'blur', 'mask', 'token', 'pseudonym']);
  });

  it('declares response headers once, with their types', () => {
    for (const { url, operation } of operations()) {
      for (const response of Object.values(operation.responses)) {
        for (const [name, header] of Object.entries(response.headers ?? {})) {
          assert.equal(header.schema.schema, undefined, `${url} ${name} is nested twice`);
          assert.ok(header.schema.type, `${url} ${name} has a type`);
        }
      }
    }
    const masked = doc.paths['/api/v1/mask-aadhaar']?.post?.responses['200'];
    assert.ok(masked);
    assert.equal(masked.headers?.['X-Masked-Count']?.schema.type, 'integer');
    assert.deepEqual(Object.keys(masked.content ?? {}), [
      'image/jpeg',
      'image/png',
      'application/pdf',
    ]);
  });

  it('generates a TypeScript client that type-checks', async () => {
    const types = astToString(await openapiTS(structuredClone(doc) as never));
    fs.writeFileSync(path.join(work, 'parda.d.ts'), types);
    // A client's use of the generated types: a form and a report, and a form the types refuse.
    const client = [
      "import type { paths } from './parda.js';",
      'type Post<P extends keyof paths> = paths[P] extends { post: infer O } ? O : never;',
      "type MaskForm = NonNullable<Post<'/api/v1/mask-aadhaar'>['requestBody']>['content']['multipart/form-data'];",
      "export const form: MaskForm = { file: 'bytes', output_format: 'pdf', mask_qr: 'all' };",
      '// @ts-expect-error: output_format is a closed set',
      "export const refused: MaskForm = { file: 'bytes', output_format: 'gif' };",
      "type Report = Post<'/api/v1/verify-document'>['responses'][200]['content']['application/json'];",
      "export const verdictOf = (report: Report): 'pass' | 'review' | 'fail' | undefined => report.verdict;",
      '',
    ].join('\n');
    fs.writeFileSync(path.join(work, 'client.ts'), client);
    const compilerOptions = { strict: true, noEmit: true, module: 'nodenext', types: [] };
    const config = { compilerOptions, files: ['client.ts'] };
    fs.writeFileSync(path.join(work, 'tsconfig.json'), JSON.stringify(config));
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const { stdout } = await promisify(execFile)(process.execPath, [tsc, '-p', work]).catch(
      (error: unknown) => ({ stdout: `failed: ${(error as { stdout: string }).stdout}` }),
    );
    assert.equal(stdout, '');
  });
});
