/**
 * The OpenAPI document in use: Swagger UI at /docs, in Chromium, authorises with a key and
 * uploads a card through "Try it out" on POST /api/v1/mask-aadhaar, as its multipart
 * requestBody describes. Screenshot kept in test-artifacts/.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { backends } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { ARTEFACTS, browserSkip, launchBrowser } from '../helpers/browser.js';
import { simpleCard } from '../helpers/cards.js';

const [sqlite] = backends();

describe(
  'Swagger UI "Try it out"',
  { skip: browserSkip('the Swagger UI test'), timeout: 60_000 },
  () => {
    let t: TestApp;
    let browser: Browser | undefined;
    before(async () => {
      if (!sqlite) throw new Error('no sqlite backend');
      t = await startTestApp(sqlite, { routes: [] });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await t.close();
    });

    it('uploads a card to mask-aadhaar and shows the masked count', async () => {
      if (!browser) throw new Error('no browser');
      const { key } = await t.newKey();
      const card = await simpleCard({ number: '2345 6789 0124' });
      const port = (t.app.server.address() as AddressInfo).port;
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      page.setDefaultTimeout(20_000);
      await page.goto(`http://127.0.0.1:${port}/docs`);

      await page.locator('.auth-wrapper button.authorize').click();
      await page.locator('.modal-ux input[type=text]').fill(key);
      await page.locator('.modal-ux button.authorize').click();
      await page.locator('.modal-ux button.btn-done').click();

      const operation = page.locator('#operations-masking-maskAadhaar');
      await operation.locator('.opblock-summary').first().click();
      await operation.locator('button.try-out__btn').click();
      // The form Swagger UI draws from the requestBody: a file input and the typed options.
      await operation.locator('input[type=file]').setInputFiles({
        name: 'card.png',
        mimeType: 'image/png',
        buffer: card.bytes,
      });
      await operation.locator('button.execute').click();

      const status = operation
        .locator('.live-responses-table tr.response .response-col_status')
        .first();
      await status.waitFor();
      assert.equal((await status.textContent())?.trim(), '200');
      const headers = await operation
        .locator('.live-responses-table tr.response .response-col_description')
        .first()
        .textContent();
      assert.match(headers ?? '', /x-masked-count: 1/);
      assert.match(headers ?? '', /content-type: image\/png/);
      fs.mkdirSync(ARTEFACTS, { recursive: true });
      await page.screenshot({
        path: path.join(ARTEFACTS, 'swagger-try-it-out.png'),
        fullPage: true,
      });
      // The card went through the API as a form: one document charged.
      const account = await t.app.inject({ url: '/api/v1/account', headers: { 'x-api-key': key } });
      assert.equal(account.json<{ quota: { used: number } }>().quota.used, 1);
    });
  },
);
