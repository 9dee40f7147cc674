import type { Settings } from '../config/settings.js';
import type { DocumentServices } from '../services/document-services.js';
import type { RequestMetering } from './metering.js';

/** What route plugins get: settings, the file services and the quota operations of a request. */
export interface RouteKit {
  readonly settings: Settings;
  readonly metering: RequestMetering;
  readonly documents: DocumentServices;
}
