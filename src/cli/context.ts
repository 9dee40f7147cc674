/** Opens what a CLI command needs, and closes it afterwards whatever happens. */
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
