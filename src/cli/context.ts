/**
 * Opens what a CLI command needs, and closes it afterwards whatever happens: the settings (with
 * the options that override them) and the accounts store.
 */
import type { Command } from 'commander';
import { openAccountsDatabase } from '../accounts/database.js';
import { AccountStore } from '../accounts/store.js';
import { loadSettings, type Settings } from '../config/settings.js';

export interface GlobalOptions {
  database?: string;
}

export function settingsFrom(options: GlobalOptions): Settings {
  const settings = loadSettings();
  return options.database ? { ...settings, databaseUrl: options.database } : settings;
}

export async function withStore<T>(
  options: GlobalOptions,
  work: (store: AccountStore, settings: Settings) => Promise<T>,
): Promise<T> {
  const settings = settingsFrom(options);
  const database = await openAccountsDatabase(settings.databaseUrl);
  try {
    return await work(new AccountStore(database.db), settings);
  } finally {
    await database.close();
  }
}

/**
 * An option that stands for a setting: given, it wins for this run; absent, the setting
 * (PARDA_* or its default) applies. Keyed by the name commander gives it (`--rpm` is `rpm`).
 */
export interface SettingOption {
  readonly flags: string;
  readonly description: string;
  readonly setting: keyof Settings;
  readonly parse?: (raw: string) => number;
}

export type SettingOptions = Readonly<Record<string, SettingOption>>;

/** What such options come to once absent ones have taken their settings. */
export type Settled<S extends SettingOptions> = { [K in keyof S]: Settings[S[K]['setting']] };

export function addSettingOptions(command: Command, options: SettingOptions): Command {
  for (const { flags, description, parse } of Object.values(options)) {
    if (parse) command.option(flags, description, parse);
    else command.option(flags, description);
  }
  return command;
}

export function orSettings<S extends SettingOptions>(
  given: Partial<Settled<S>>,
  settings: Settings,
  options: S,
): Settled<S> {
  const values: Readonly<Record<string, unknown>> = given;
  const settled = Object.entries(options).map(([name, option]) => [
    name,
    values[name] ?? settings[option.setting],
  ]);
  return Object.fromEntries(settled) as Settled<S>;
}
