/**
 * The `parda` command line: the server, key administration, usage reports, and the file
 * commands on one file or on folders (docs/cli.md).
 */
import { Command } from 'commander';
import {
  addSettingOptions,
  orSettings,
  settingsFrom,
  withStore,
  type GlobalOptions,
  type SettingOptions,
} from './context.js';
import { registerKeyCommands } from './keys.js';
import { registerExtractCommands } from './extract.js';
import { registerMaskCommand } from './mask.js';
import { USAGE_EXIT, UsageError, wholeNumber } from './parse.js';
import { registerUsageCommand } from './usage.js';
import { registerVerifyCommand } from './verify.js';
import { registerRedactPiiCommand } from './redact-pii.js';
import { registerGlobalRedactCommand } from './redact.js';
import { serve } from '../server.js';

const DEV_ORGANISATION = 'local-dev';

const program = new Command()
  .name('parda')
  .description('Parda document privacy service')
  .option('--database <url>', 'accounts database URL (default: PARDA_DATABASE_URL)')
  .showHelpAfterError();

const global = () => program.opts<GlobalOptions>();

const SERVE_OPTIONS = {
  host: {
    flags: '--host <host>',
    description: 'address to listen on (default: PARDA_HOST or 127.0.0.1)',
    setting: 'host',
  },
  port: {
    flags: '--port <port>',
    description: 'port (default: PARDA_PORT or 8000)',
    setting: 'port',
    parse: wholeNumber(0),
  },
  workers: {
    flags: '--workers <n>',
    description: 'worker processes (default: PARDA_WORKERS or 1)',
    setting: 'workers',
    parse: wholeNumber(1),
  },
} as const satisfies SettingOptions;

addSettingOptions(program.command('serve').description('serve the HTTP API'), SERVE_OPTIONS).action(
  async (options: { host?: string; port?: number; workers?: number }) => {
    const settings = settingsFrom(global());
    await serve(settings, orSettings(options, settings, SERVE_OPTIONS));
  },
);

program
  .command('init')
  .description('create or migrate the database; issue a development key if there is none')
  .action(async () => {
    await withStore(global(), async (store) => {
      const existing = await store.countKeys();
      if (existing > 0) {
        console.log(
          `Database ready; ${existing} key(s) exist. Keys are shown only when created: ` +
            'make another with "bin/parda keys create --org NAME".',
        );
        return;
      }
      const { key, record } = await store.createKey({
        organisation: DEV_ORGANISATION,
        monthlyQuota: 10_000,
        requestsPerMinute: 600,
        revealEntitled: false,
      });
      console.log(
        `Database ready. Issued a local development key (${record.id}) for "${DEV_ORGANISATION}".`,
      );
      console.log('It is shown only this once; send it as the X-API-Key header:');
      console.log(key);
    });
  });

program
  .command('migrate')
  .description('create or migrate the database and exit')
  .action(async () => {
    await withStore(global(), () => {
      console.log('Database is up to date.');
      return Promise.resolve();
    });
  });

registerKeyCommands(program, global);
registerUsageCommand(program, global);
registerMaskCommand(program);
registerExtractCommands(program);
registerVerifyCommand(program);
registerRedactPiiCommand(program);
registerGlobalRedactCommand(program);

try {
  await program.parseAsync();
} catch (error) {
  // The message only, never a stack trace: operators read this, and keys pass through here.
  const message = error instanceof Error ? error.message : 'unexpected failure';
  console.error(`parda: ${message}`);
  process.exitCode = error instanceof UsageError ? USAGE_EXIT : 1;
}
