/** Decides what a presented API key is worth, independent of HTTP. */
import { isLapsed } from './calendar.js';
import type { AccountStore, ApiKey } from './store.js';

export type Authentication =
  | { readonly outcome: 'missing' }
  | { readonly outcome: 'invalid' }
  | { readonly outcome: 'disabled'; readonly key: ApiKey }
  | { readonly outcome: 'lapsed'; readonly key: ApiKey; readonly paidUntil: string }
  | { readonly outcome: 'ok'; readonly key: ApiKey };

export async function authenticate(
  store: AccountStore,
  presented: string | undefined,
  now = new Date(),
): Promise<Authentication> {
  if (presented === undefined || presented.trim() === '') return { outcome: 'missing' };
  const key = await store.findByKey(presented.trim());
  if (!key || key.status === 'revoked') return { outcome: 'invalid' };
  if (key.status === 'disabled') return { outcome: 'disabled', key };
  if (key.paidUntil !== null && isLapsed(key.paidUntil, now)) {
    return { outcome: 'lapsed', key, paidUntil: key.paidUntil };
  }
  return { outcome: 'ok', key };
}
