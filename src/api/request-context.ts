/** What the API keeps on each request, declared once for Fastify's types. */
import type { ApiKey, QuotaSnapshot } from '../accounts/store.js';

export interface RequestAccount {
  readonly key: ApiKey;
  /** The quota as last read or charged; becomes the X-Quota-* headers. */
  quota: QuotaSnapshot;
  /** Documents charged by this request; becomes the usage record's documents_charged. */
  charged: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    account: RequestAccount | null;
    /** Bytes of uploaded parts read, for the usage log when no Content-Length was sent. */
    uploadedBytes: number;
  }
  interface FastifyContextConfig {
    /** Open to anyone: no API key, no rate limit, no quota headers. */
    public?: boolean;
    /** The metrics scrape (/metrics): left out of the usage log and of the metrics. */
    scrape?: boolean;
  }
}
