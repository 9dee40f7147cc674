/** Quota checks and charges for a request, keeping the X-Quota-* headers current. */
import type { FastifyRequest } from 'fastify';
import type { Metering } from '../accounts/metering.js';
import type { RequestAccount } from './request-context.js';

function accountOf(request: FastifyRequest): RequestAccount {
  if (!request.account) throw new Error('metering needs an authenticated route');
  return request.account;
}

export class RequestMetering {
  constructor(private readonly metering: Metering) {}

  /** Refuses with 429 `quota_exceeded` unless `documents` more fit this month. */
  async require(request: FastifyRequest, documents: number): Promise<void> {
    const account = accountOf(request);
    account.quota = await this.metering.ensureRemaining(account.key, documents);
  }

  /** Charges the documents that produced a result; 429 if the room went to another request. */
  async charge(request: FastifyRequest, documents: number): Promise<void> {
    const account = accountOf(request);
    if (documents <= 0) return;
    try {
      account.quota = await this.metering.charge(account.key, documents);
      account.charged += documents;
    } catch (error) {
      account.quota = await this.metering.snapshot(account.key);
      throw error;
    }
  }
}
