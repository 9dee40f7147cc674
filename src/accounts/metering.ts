/**
 * Monthly document quota: checked before work starts, charged after it, atomically.
 * Only results that found something are charged (README, Limits).
 */
import type { AccountStore, ApiKey, QuotaSnapshot } from './store.js';

export class QuotaExceededError extends Error {
  override name = 'QuotaExceededError';
  constructor(
    readonly quota: QuotaSnapshot,
    readonly requested: number,
  ) {
    super(
      requested > 1 && quota.remaining > 0
        ? `This request needs ${requested} documents but only ${quota.remaining} remain in this month's quota of ${quota.limit}.`
        : `The monthly quota of ${quota.limit} documents is used up; it resets on the first day of next month (UTC).`,
    );
  }
}

export class Metering {
  constructor(
    private readonly store: AccountStore,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  snapshot(key: ApiKey): Promise<QuotaSnapshot> {
    return this.store.quota(key, this.clock());
  }

  /** Throws QuotaExceededError unless `documents` more would fit this month. */
  async ensureRemaining(key: ApiKey, documents: number): Promise<QuotaSnapshot> {
    const quota = await this.snapshot(key);
    if (quota.remaining < documents) throw new QuotaExceededError(quota, documents);
    return quota;
  }

  /**
   * Charges `documents` and returns the quota after the charge. Throws QuotaExceededError
   * when a concurrent request used the room first: the result must then not be delivered.
   */
  async charge(key: ApiKey, documents: number): Promise<QuotaSnapshot> {
    const now = this.clock();
    if (documents > 0 && !(await this.store.charge(key.id, documents, now))) {
      throw new QuotaExceededError(await this.store.quota(key, now), documents);
    }
    return this.store.quota(key, now);
  }
}
