import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openAccountsDatabase } from '../../src/accounts/database.js';
import { AccountStore } from '../../src/accounts/store.js';
import { samePixels } from '../helpers/pixels.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(root, 'bin', 'parda');

describe('the parda command line', () => {
  let dir: string;
  let url: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-cli-'));
    url = `sqlite:///${path.join(dir, 'cli.db')}`;
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const parda = async (...args: string[]) => {
    const { stdout } = await run(bin, ['--database', url, ...args], {
      env: { ...process.env, PARDA_LOG_LEVEL: 'silent' },
    });
    return stdout.trimEnd().split('\n');
  };
  const fails = async (...args: string[]) => {
    try {
      await run(bin, ['--database', url, ...args]);
    } catch (error) {
      return error as { code: number; stderr: string };
    }
    throw new Error(`parda ${args.join(' ')} succeeded`);
  };

  it('init issues one development key, printed once', async () => {
    const first = await parda('init');
    assert.match(first.at(-1) ?? '', /^pk_live_[A-Za-z0-9]{40}$/);
    const second = await parda('init');
    assert.doesNotMatch(second.join('\n'), /pk_live_[A-Za-z0-9]{40}/);
    assert.equal((await parda('keys', 'list')).length, 1);
  });

  it('keys create prints the key alone on the last line, stored only as a hash', async () => {
    const out = await parda(
      'keys',
      'create',
      '--org',
      'Acme Bank',
      '--quota',
      '25',
      '--rpm',
      '9',
      '--reveal',
      '--prefix',
      'acme',
      '--paid-until',
      '2027-03-31',
    );
    const key = out.at(-1) ?? '';
    assert.match(key, /^acme_live_[A-Za-z0-9]{40}$/);
    const listing = (await parda('keys', 'list', '--org', 'Acme Bank')).join('\n');
    assert.match(listing, /quota=25\/month {2}rpm=9 {2}reveal=yes {2}paid_until=2027-03-31/);
    assert.ok(!listing.includes(key.slice(10, -4)), 'list never shows the key');
    const bytes = fs.readFileSync(path.join(dir, 'cli.db'));
    assert.ok(!bytes.includes(Buffer.from(key)), 'the database never holds the key');
  });

  it('disables, enables, entitles and revokes by key or by id', async () => {
    const key = (await parda('keys', 'create', '--org', 'beta')).at(-1) ?? '';
    const id = (await parda('keys', 'list', '--org', 'beta'))[0]?.split(/\s+/)[0] ?? '';
    assert.match((await parda('keys', 'disable', key)).join(''), /disabled/);
    assert.match((await parda('keys', 'enable', id)).join(''), /active/);
    assert.match((await parda('keys', 'entitle', id)).join(''), /reveal=yes/);
    assert.match((await parda('keys', 'entitle', key, '--off')).join(''), /reveal=no/);
    assert.match(
      (await parda('keys', 'update', id, '--quota', '3', '--paid-until', 'none')).join(''),
      /quota=3\/month.*paid_until=none/,
    );
    assert.match((await parda('keys', 'revoke', key)).join(''), /revoked/);
    const refused = await fails('keys', 'enable', id);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /revoked key cannot be enabled/);
    assert.doesNotMatch(refused.stderr, /\n\s+at /, 'no stack trace');
  });

  it('refuses bad arguments with a message', async () => {
    assert.match(
      (await fails('keys', 'create', '--org', 'x', '--quota', 'lots')).stderr,
      /whole number/,
    );
    assert.match(
      (await fails('keys', 'create', '--org', 'x', '--prefix', 'Bad_Prefix')).stderr,
      /key prefix/,
    );
    assert.match(
      (await fails('keys', 'create', '--org', 'x', '--paid-until', '2027-02-30')).stderr,
      /YYYY-MM-DD/,
    );
    assert.match((await fails('keys', 'disable', 'key_nonexistent')).stderr, /no such key/);
  });

  it('usage summarises the usage log per organisation', async () => {
    const database = await openAccountsDatabase(url);
    try {
      const store = new AccountStore(database.db);
      const [key] = await store.listKeys('beta');
      assert.ok(key);
      for (const [status, charged] of [
        [200, 1],
        [200, 0],
        [429, 0],
      ] as const) {
        await store.recordUsage({
          requestId: `r${status}${charged}`,
          keyId: key.id,
          organisationId: key.organisationId,
          method: 'POST',
          endpoint: '/api/v1/mask-aadhaar',
          statusCode: status,
          bytesIn: 2 * 1_048_576,
          processingMs: 120,
          documentsCharged: charged,
          at: new Date('2026-10-05T00:00:00Z'),
        });
      }
    } finally {
      await database.close();
    }
    const table = await parda('usage', '--month', '2026-10');
    assert.match(table.join('\n'), /beta\s+3\s+2\s+1\s+0\s+1\s+6\.0\s+120/);
    const json = JSON.parse((await parda('usage', '--month', '2026-10', '--json')).join('\n')) as {
      organisations: { organisation: string; documentsCharged: number }[];
    };
    assert.deepEqual(
      json.organisations.map((o) => [o.organisation, o.documentsCharged]),
      [['beta', 1]],
    );
  });
});

describe('parda mask-aadhaar', () => {
  it('masks a local file without a key, and exits 3 when nothing is found', async () => {
    const { simpleCard } = await import('../helpers/cards.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-mask-'));
    try {
      const card = await simpleCard({ number: '2345 6789 0124' });
      const input = path.join(dir, 'card.png');
      fs.writeFileSync(input, card.bytes);
      const { stdout } = await run(bin, ['mask-aadhaar', input, '--output-format', 'pdf']);
      assert.match(stdout, /Masked 1 region/);
      const output = fs.readFileSync(path.join(dir, 'card_masked.pdf'));
      assert.equal(output.subarray(0, 5).toString(), '%PDF-');

      const blank = await simpleCard({ lines: ['no number'] });
      fs.writeFileSync(input, blank.bytes);
      const failure = await run(bin, ['mask-aadhaar', input, '-o', path.join(dir, 'out.png')]).then(
        () => null,
        (error: unknown) => error as { code: number; stderr: string },
      );
      assert.ok(failure, 'exits with a failure status');
      assert.equal(failure.code, 3);
      assert.match(failure.stderr, /Nothing masked: no Aadhaar found/);
      assert.ok(await samePixels(fs.readFileSync(path.join(dir, 'out.png')), blank.bytes));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('parda verify', () => {
  it('prints the report and exits 0 on pass, 5 on fail; the trust set comes from PARDA_UIDAI_CERTS', async () => {
    const { generateVerifyCard } = await import('../fixtures/cards/verify-kinds.js');
    const { testKeyPath } = await import('../fixtures/aadhaar/keys.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-verify-'));
    const env = {
      ...process.env,
      PARDA_LOG_LEVEL: 'silent',
      PARDA_UIDAI_CERTS: testKeyPath('certificate'),
    };
    try {
      const genuine = await generateVerifyCard('genuine-scan', 7919);
      const input = path.join(dir, genuine.filename);
      fs.writeFileSync(input, genuine.bytes);
      const { stdout } = await run(bin, ['verify', input], { env });
      const report = JSON.parse(stdout) as { verdict: string; signals: unknown[] };
      assert.equal(report.verdict, 'pass');
      assert.deepEqual(report.signals, []);

      const tampered = await generateVerifyCard('tampered-gender', 7919);
      fs.writeFileSync(input, tampered.bytes);
      const failure = await run(bin, ['verify', input], { env }).then(
        () => null,
        (error: unknown) => error as { code: number; stdout: string },
      );
      assert.ok(failure, 'exits with a failure status');
      assert.equal(failure.code, 5);
      assert.equal((JSON.parse(failure.stdout) as { verdict: string }).verdict, 'fail');
      for (const value of tampered.printedValues) assert.ok(!failure.stdout.includes(value));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('parda redact-pii', () => {
  it('covers identifiers in a local file, and refuses an unknown type', async () => {
    const { simpleCard } = await import('../helpers/cards.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-redact-'));
    const env = { ...process.env, PARDA_LOG_LEVEL: 'silent' };
    try {
      const card = await simpleCard({ lines: ['PAN: ACUPA7085R', 'Mail priya.sharma@example.in'] });
      const input = path.join(dir, 'note.png');
      fs.writeFileSync(input, card.bytes);
      const { stdout } = await run(bin, ['redact-pii', input, '--types', 'pan'], { env });
      assert.match(stdout, /Redacted 1 region\(s\) \(pan 1\)/);
      assert.ok(fs.existsSync(path.join(dir, 'note_redacted.png')));
      assert.doesNotMatch(stdout, /ACUPA7085R/);

      const failure = await run(bin, ['redact-pii', input, '--types', 'pan,ssn'], { env }).then(
        () => null,
        (error: unknown) => error as { code: number; stderr: string },
      );
      assert.ok(failure, 'exits with a failure status');
      assert.equal(failure.code, 1);
      assert.match(failure.stderr, /Unknown type\(s\): ssn/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('parda redact', () => {
  it('redacts global identifiers in a local PDF, keeping its other words; refuses a bad mode', async () => {
    const { pdfWithLines } = await import('../helpers/fixtures.js');
    const { mupdf } = await import('../../src/documents/mupdf.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parda-test-global-'));
    const env = { ...process.env, PARDA_LOG_LEVEL: 'silent' };
    try {
      const input = path.join(dir, 'letter.pdf');
      fs.writeFileSync(
        input,
        pdfWithLines([[{ text: 'Pay to IBAN GB82 WEST 1234 5698 7654 32 today.', x: 72, y: 760 }]]),
      );
      const { stdout } = await run(bin, ['redact', input, '--mode', 'token'], { env });
      assert.match(stdout, /Redacted 1 value\(s\) \(IBAN 1\)/);
      assert.doesNotMatch(stdout, /WEST/);
      const output = fs.readFileSync(path.join(dir, 'letter_redacted.pdf'));
      const doc = mupdf.Document.openDocument(output, 'application/pdf');
      const page = doc.loadPage(0);
      const text = page.toStructuredText('preserve-whitespace').asText().replace(/\s+/g, ' ');
      page.destroy();
      doc.destroy();
      // The token is drawn after the page's own text, so it is extracted last.
      assert.equal(text.trim(), 'Pay to IBAN today. [IBAN_1]');

      const failure = await run(bin, ['redact', input, '--mode', 'smudge'], { env }).then(
        () => null,
        (error: unknown) => error as { code: number; stderr: string },
      );
      assert.ok(failure, 'exits with a failure status');
      assert.equal(failure.code, 1);
      assert.match(failure.stderr, /mode must be one of/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
