/**
 * Debian's Chromium driven by playwright-core, for the browser tests. A missing browser skips
 * them with a message on a developer's machine, and fails them under CI (.ci/run installs it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { packageRoot } from '../../src/api/routes/web.js';

export const CHROMIUM = '/usr/bin/chromium';

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  // Without these the closed network makes Chromium wait for its own services.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where the browser tests keep their screenshots (git-ignored). */
export const ARTEFACTS = path.join(packageRoot(), 'test-artifacts');

const present = fs.existsSync(CHROMIUM);

/** `describe`'s `skip`: false, or why the browser tests cannot run here. */
export function browserSkip(what: string): false | string {
  if (present || process.env['CI']) return false;
  return `${CHROMIUM} is missing: ${what} is skipped (set CI to make this a failure)`;
}

export async function launchBrowser(): Promise<Browser> {
  if (!present) throw new Error(`${CHROMIUM} is missing and CI is set: the browser test must run`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS });
}
