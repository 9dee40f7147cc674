/** `parda keys ...`: issue and manage API keys. */
import type { Command } from 'commander';
import type { ApiKey } from '../accounts/store.js';
import type { KeyStatus } from '../accounts/schema.js';
import {
  addSettingOptions,
  orSettings,
  withStore,
  type GlobalOptions,
  type SettingOptions,
} from './context.js';
import { dayOrNone, paidUntilValue, wholeNumber } from './parse.js';

function describe(key: ApiKey): string {
  return [
    key.id,
    key.status,
    `org=${key.organisationName}`,
    `key=${key.prefix}_live_...${key.last4}`,
    `quota=${key.monthlyQuota}/month`,
    `rpm=${key.requestsPerMinute}`,
    `reveal=${key.revealEntitled ? 'yes' : 'no'}`,
    `paid_until=${key.paidUntil ?? 'none'}`,
  ].join('  ');
}

/**
 * A key's limits: `keys create` gives an absent one its configured default (PARDA_DEFAULT_*),
 * `keys update` leaves it unchanged.
 */
const LIMIT_OPTIONS = {
  quota: {
    flags: '--quota <n>',
    description: 'monthly document quota',
    setting: 'defaultMonthlyQuota',
    parse: wholeNumber(0),
  },
  rpm: {
    flags: '--rpm <n>',
    description: 'requests per minute',
    setting: 'defaultRequestsPerMinute',
    parse: wholeNumber(1),
  },
} as const satisfies SettingOptions;

interface CreateOptions {
  org: string;
  quota?: number;
  rpm?: number;
  reveal?: boolean;
  prefix?: string;
  paidUntil?: string;
}

export function registerKeyCommands(program: Command, global: () => GlobalOptions): void {
  const keys = program.command('keys').description('issue and manage API keys');

  addSettingOptions(
    keys
      .command('create')
      .description('issue a key; the key is printed once, alone on the last line')
      .requiredOption('--org <name>', 'organisation (created if new)'),
    LIMIT_OPTIONS,
  )
    .option('--reveal', 'entitle the key to unmasked Aadhaar numbers', false)
    .option('--prefix <p>', 'key prefix, 2-16 lower-case letters and digits', 'pk')
    .option('--paid-until <date>', 'last paid day, YYYY-MM-DD (UTC), or "none"', dayOrNone)
    .action(async (options: CreateOptions) => {
      await withStore(global(), async (store, settings) => {
        const limits = orSettings(options, settings, LIMIT_OPTIONS);
        const { key, record } = await store.createKey({
          organisation: options.org,
          monthlyQuota: limits.quota,
          requestsPerMinute: limits.rpm,
          revealEntitled: options.reveal === true,
          ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
          paidUntil: options.paidUntil === undefined ? null : paidUntilValue(options.paidUntil),
        });
        console.log(describe(record));
        console.log('Store the key now: it is shown only this once.');
        console.log(key);
      });
    });

  keys
    .command('list')
    .description('list keys (never the keys themselves)')
    .option('--org <name>', 'only this organisation')
    .action(async (options: { org?: string }) => {
      await withStore(global(), async (store) => {
        const list = await store.listKeys(options.org);
        if (list.length === 0) console.log('No keys.');
        for (const key of list) console.log(describe(key));
      });
    });

  const setStatus = (name: string, status: KeyStatus, summary: string) =>
    keys
      .command(`${name} <key>`)
      .description(`${summary} (KEY: the key or its id)`)
      .action(async (reference: string) => {
        await withStore(global(), async (store) => {
          const key = await store.resolveKey(reference);
          console.log(describe(await store.setStatus(key.id, status)));
        });
      });
  setStatus('disable', 'disabled', 'disable a key: 403 key_disabled until enabled');
  setStatus('enable', 'active', 'enable a disabled key');
  setStatus('revoke', 'revoked', 'revoke a key for good: 401 invalid_api_key');

  keys
    .command('entitle <key>')
    .description('grant (or with --off withdraw) the unmasked-Aadhaar entitlement')
    .option('--off', 'withdraw the entitlement', false)
    .action(async (reference: string, options: { off: boolean }) => {
      await withStore(global(), async (store) => {
        const key = await store.resolveKey(reference);
        console.log(describe(await store.updateKey(key.id, { revealEntitled: !options.off })));
      });
    });

  addSettingOptions(
    keys.command('update <key>').description("change a key's quota, rate limit or paid period"),
    LIMIT_OPTIONS,
  )
    .option('--paid-until <date>', 'last paid day, YYYY-MM-DD (UTC), or "none"', dayOrNone)
    .action(
      async (reference: string, options: { quota?: number; rpm?: number; paidUntil?: string }) => {
        await withStore(global(), async (store) => {
          const key = await store.resolveKey(reference);
          const updated = await store.updateKey(key.id, {
            ...(options.quota === undefined ? {} : { monthlyQuota: options.quota }),
            ...(options.rpm === undefined ? {} : { requestsPerMinute: options.rpm }),
            ...(options.paidUntil === undefined
              ? {}
              : { paidUntil: paidUntilValue(options.paidUntil) }),
          });
          console.log(describe(updated));
        });
      },
    );
}
