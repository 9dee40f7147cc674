/**
 * The web tool in a real browser: Debian's Chromium driven by playwright-core against the real
 * app on a local port (test/helpers/browser.ts: skipped with a message when /usr/bin/chromium
 * is missing, unless CI is set, where a missing browser fails). Screenshots go to
 * test-artifacts/web/.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { backends } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { ARTEFACTS, browserSkip, launchBrowser } from '../helpers/browser.js';
import { blackShare, simpleCard } from '../helpers/cards.js';
import * as fixtures from '../helpers/fixtures.js';
import { crc32 } from '../helpers/crc32.js';
import { fileUpload } from '../helpers/multipart.js';
import { unzip } from '../helpers/unzip.js';

const ARTEFACTS_WEB = path.join(ARTEFACTS, 'web');
const NUMBER = '2345 6789 0124';
const EMAIL = 'jane.doe@mailbox.co.uk';

const [sqlite] = backends();
if (!sqlite) throw new Error('no sqlite backend');

describe(
  'the web tool in Chromium',
  { skip: browserSkip('the web tool test'), timeout: 90_000 },
  () => {
    let t: TestApp;
    let key: string;
    let keyId: string;
    let base: string;
    let browser: Browser;
    let page: Page;
    /** Console errors and uncaught exceptions of the page: CSP violations show up here. */
    const problems: string[] = [];
    /** What before() started, stopped in reverse order whatever failed. */
    const started: (() => Promise<void>)[] = [];

    const shot = (name: string) =>
      page.screenshot({ path: path.join(ARTEFACTS_WEB, `${name}.png`), fullPage: true });

    before(async () => {
      fs.mkdirSync(ARTEFACTS_WEB, { recursive: true });
      t = await startTestApp(sqlite, { routes: [] });
      started.push(() => t.close());
      ({ key, id: keyId } = await t.newKey({ monthlyQuota: 40, organisation: 'web-test' }));
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      browser = await launchBrowser();
      started.push(() => browser.close());
      const context = await browser.newContext({
        acceptDownloads: true,
        viewport: { width: 1280, height: 900 },
      });
      page = await context.newPage();
      page.setDefaultTimeout(20_000);
      page.on('console', (message) => {
        // Chromium reports every 4xx answer as a console error; the refusals are expected.
        const refusal = /^Failed to load resource: the server responded with a status of 4\d\d/;
        if (message.type() === 'error' && !refusal.test(message.text())) {
          problems.push(`console: ${message.text()}`);
        }
      });
      page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
      // Listening from the start turns on the interception of file choosers before any opens.
      page.on('filechooser', () => undefined);
    });

    after(async () => {
      for (const stop of started.reverse()) await stop();
    });

    it('loads without a key and keeps the pasted key in sessionStorage only', async () => {
      const response = await page.goto(`${base}/`);
      assert.equal(response?.status(), 200);
      await page.getByRole('heading', { name: 'Files' }).waitFor();
      await page.getByLabel('Your API key').fill(key);
      await page.getByLabel('Your API key').press('Tab');
      await page.locator('#key-status', { hasText: 'web-test' }).waitFor();
      const stored = await page.evaluate<{ session: string | null; local: number; cookie: string }>(
        `({
        session: sessionStorage.getItem('parda.apiKey'),
        local: localStorage.length,
        cookie: document.cookie,
      })`,
      );
      assert.deepEqual(stored, { session: key, local: 0, cookie: '' });
      // The listings filled the option panels.
      await page.locator('#global-types input[value="EMAIL"]').waitFor({ state: 'attached' });
      // The drop zone has a button, operable from the keyboard.
      await page.getByRole('button', { name: 'Choose files…' }).focus();
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.keyboard.press('Enter'),
      ]);
      assert.ok(chooser.isMultiple());
    });

    it('masks two cards one by one, shows a result beside its original and downloads it', async () => {
      const card = await simpleCard({ number: NUMBER });
      const photo = await simpleCard({ number: NUMBER, format: 'jpeg' });
      await page.getByLabel('Operation').selectOption('mask-aadhaar');
      await page.setInputFiles('#file-input', [
        { name: 'card.png', mimeType: 'image/png', buffer: card.bytes },
        { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: photo.bytes },
      ]);
      assert.equal(await page.locator('.item').count(), 2);
      await page.getByRole('button', { name: 'Process files' }).click();
      await page.locator('#queue-status', { hasText: 'Finished: 2 of 2 processed.' }).waitFor({
        timeout: 45_000,
      });
      assert.deepEqual(await page.locator('.item-status').allTextContents(), [
        'Done: 1 masked',
        'Done: 1 masked',
      ]);
      const progress: (string | null)[] = [];
      for (const bar of await page.locator('.item progress').all()) {
        progress.push(await bar.getAttribute('value'));
      }
      assert.deepEqual(progress, ['100', '100']);
      // The first file is shown: its counts, and the two images side by side.
      assert.equal(await page.locator('#result-name').textContent(), 'card.png');
      assert.equal(await page.locator('dd[data-header="x-masked-count"]').textContent(), '1');
      assert.equal(
        await page.locator('dd[data-header="x-residual-check"]').textContent(),
        'passed',
      );
      const original = page.locator('#pane-original-body img');
      const result = page.locator('#pane-result-body img');
      await page.waitForFunction(
        `[...document.querySelectorAll('.pane-body img')].filter(
        (img) => img.complete && img.naturalWidth > 0,
      ).length === 2`,
      );
      const left = await original.boundingBox();
      const right = await result.boundingBox();
      assert.ok(left && right);
      assert.ok(right.x >= left.x + left.width, 'side by side');
      assert.ok(Math.abs(right.y - left.y) < 5, 'on one row');
      await shot('mask-aadhaar');

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.locator('#result-download').click(),
      ]);
      assert.equal(download.suggestedFilename(), 'card_masked.png');
      const bytes = fs.readFileSync(await download.path());
      const form = fileUpload(card.bytes, 'card.png');
      const direct = await t.app.inject({
        method: 'POST',
        url: '/api/v1/mask-aadhaar',
        headers: { 'x-api-key': key, 'content-type': form.contentType },
        payload: form.body,
      });
      assert.equal(direct.statusCode, 200);
      assert.ok(bytes.equals(direct.rawPayload), 'the same bytes as the API sends');
      assert.ok(!bytes.equals(card.bytes));
      const { data, info } = await sharp(bytes)
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      card.digits.forEach((box, i) => {
        const share = blackShare(data, info.width, info.channels, box);
        if (i < 8) assert.ok(share > 0.97, `digit ${i + 1} covered`);
        else assert.ok(share < 0.7, `digit ${i + 1} visible`);
      });

      // Both results in one ZIP built by the page, with a manifest.
      const [archive] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download all (ZIP)' }).click(),
      ]);
      assert.equal(archive.suggestedFilename(), 'parda-results.zip');
      const zipped = fs.readFileSync(await archive.path());
      const entries = await unzip(zipped);
      assert.deepEqual(
        [...entries.keys()],
        ['001_card_masked.png', '002_photo_masked.jpg', 'manifest.json'],
      );
      assert.ok(entries.get('001_card_masked.png')?.equals(bytes));
      assert.equal(zipped.readUInt32LE(14), crc32(bytes), 'the CRC-32 of the first entry');
      const manifest = JSON.parse(entries.get('manifest.json')?.toString('utf8') ?? '') as {
        files: { filename: string; status: string; headers: Record<string, string> }[];
      };
      assert.deepEqual(
        manifest.files.map((f) => [f.filename, f.status, f.headers['X-Masked-Count']]),
        [
          ['card.png', 'done', '1'],
          ['photo.jpg', 'done', '1'],
        ],
      );
    });

    it('shows the error code and message of a refused file', async () => {
      await page.getByRole('button', { name: 'Clear list' }).click();
      await page.setInputFiles('#file-input', {
        name: 'notes.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('not a document'),
      });
      await page.getByRole('button', { name: 'Process files' }).click();
      await page.locator('.item[data-state="error"]').waitFor();
      assert.equal(
        await page.locator('#result-error .error-code').textContent(),
        'unsupported_file_type',
      );
      assert.ok(
        ((await page.locator('#result-error .error-message').textContent()) ?? '').length > 10,
      );
    });

    it('redacts a three-page PDF and pages through the original and the result', async () => {
      const pdf = fixtures.pdfWithLines(
        [1, 2, 3].map((n) => [
          { text: `Page ${n} of the statement`, x: 72, y: 760, size: 18 },
          { text: `Contact: ${EMAIL}`, x: 72, y: 700, size: 14 },
        ]),
      );
      await page.getByRole('button', { name: 'Clear list' }).click();
      await page.getByLabel('Operation').selectOption('global-redact');
      await page.locator('#view-files').getByLabel('Mode').selectOption('box');
      await page.setInputFiles('#file-input', {
        name: 'statement.pdf',
        mimeType: 'application/pdf',
        buffer: pdf,
      });
      await page.getByRole('button', { name: 'Process files' }).click();
      await page.locator('.item[data-state="done"]').waitFor({ timeout: 45_000 });
      assert.equal(await page.locator('dd[data-header="x-entities-found"]').textContent(), '3');

      for (const pane of ['#pane-original-body', '#pane-result-body']) {
        const canvas = page.locator(`${pane} canvas[data-rendered="1"]`);
        await canvas.waitFor();
        assert.equal(await page.locator(`${pane} .page-number`).textContent(), 'Page 1 of 3');
        assert.ok(await page.locator(`${pane} .page-previous`).isDisabled());
        await page.locator(`${pane} .page-next`).click();
        await page.locator(`${pane} canvas[data-rendered="2"]`).waitFor();
        assert.equal(await page.locator(`${pane} .page-number`).textContent(), 'Page 2 of 3');
        await page.locator(`${pane} .page-next`).click();
        await page.locator(`${pane} canvas[data-rendered="3"]`).waitFor();
        assert.ok(await page.locator(`${pane} .page-next`).isDisabled());
        await page.locator(`${pane} .page-previous`).click();
        await page.locator(`${pane} canvas[data-rendered="2"]`).waitFor();
      }
      // Drawn, not blank: the page has dark pixels (its text) somewhere.
      const inked = await page.evaluate<number>(`(() => {
      const canvas = document.querySelector('#pane-result-body canvas');
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] < 80) dark += 1;
      return dark;
    })()`);
      assert.ok(inked > 100, `dark pixels: ${inked}`);
      await shot('global-redact-pdf');

      // The same file through detection: a JSON report, laid out as a table of findings.
      await page.getByLabel('Operation').selectOption('global-detect');
      await page.getByRole('button', { name: 'Process files' }).click();
      await page.locator('.item[data-state="done"]', { hasText: 'Done: 3 found' }).waitFor();
      const rows = page.locator('#pane-result-body dd[data-key="entities"] tbody tr');
      assert.equal(await rows.count(), 3);
      assert.match((await rows.first().textContent()) ?? '', /EMAIL/);
      assert.equal(await page.locator('#pane-result-body details.raw-json').count(), 1);
      await shot('global-detect-json');
    });

    it('redacts text and marks each finding in the original text', async () => {
      await page.getByRole('link', { name: 'Text' }).click();
      await page.getByRole('heading', { name: 'Text', exact: true }).waitFor();
      const text = `Dear customer — write to ${EMAIL} today.`;
      await page.getByLabel('Text to redact').fill(text);
      await page.getByRole('button', { name: 'Redact text' }).click();
      const mark = page.locator('#text-highlighted mark.finding');
      await mark.waitFor();
      assert.equal(await mark.count(), 1);
      assert.equal(await mark.getAttribute('data-type'), 'EMAIL');
      assert.equal(await mark.locator('.finding-value').textContent(), EMAIL);
      assert.equal(
        await page.locator('#text-redacted').textContent(),
        'Dear customer — write to [EMAIL_1] today.',
      );
      await shot('text');
    });

    it('shows the quota and a bar for today on the usage page', async () => {
      const quota = await t.store.quota(await t.store.getKey(keyId));
      // Two cards on the page, one by a direct call, the PDF redacted and its detection, the
      // text: one document each.
      assert.equal(quota.used, 6);
      await page.getByRole('link', { name: 'Usage' }).click();
      await page.locator('#usage-content').waitFor();
      assert.equal(await page.locator('#quota-used').textContent(), '6');
      assert.equal(await page.locator('#quota-remaining').textContent(), '34');
      assert.equal(await page.locator('#quota-limit').textContent(), '40');
      const today = new Date().toISOString().slice(0, 10);
      const bar = page.locator(`svg.chart g.day.today[data-date="${today}"]`);
      assert.equal(await bar.count(), 1);
      const requests = Number(await bar.getAttribute('data-requests'));
      // At least: the key check, two cards, a direct call, the refused file, the PDF twice, the
      // text.
      assert.ok(requests >= 8, `requests today: ${requests}`);
      assert.equal(await bar.getAttribute('data-errors'), '1');
      const heights: number[] = [];
      for (const rect of await bar.locator('rect.bar').all()) {
        heights.push(Number(await rect.getAttribute('height')));
      }
      assert.ok(heights.length > 0 && heights.every((h) => h > 0), heights.join(','));
      assert.equal(
        await page
          .locator('#errors-by-code tr[data-error="unsupported_file_type"] td')
          .textContent(),
        '1',
      );
      await shot('usage');
    });

    it('stacks the panes on a phone and forgets the key on request', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('link', { name: 'Files' }).click();
      const panes = page.locator('#result figure.pane');
      const [first, second] = [await panes.nth(0).boundingBox(), await panes.nth(1).boundingBox()];
      assert.ok(first && second);
      assert.ok(second.y >= first.y + first.height, 'the result below the original');
      await shot('phone');
      await page.getByRole('button', { name: 'Forget key' }).click();
      assert.equal(await page.getByLabel('Your API key').inputValue(), '');
      assert.equal(await page.evaluate<number>('sessionStorage.length'), 0);
    });

    it('ran without a console error or a CSP violation', () => {
      assert.deepEqual(problems, []);
    });
  },
);
