/**
 * A file endpoint described once, for both its HTTP route (api/routes/) and its CLI command
 * (cli/): the option fields it takes with their allowed values and defaults, how their text
 * becomes the service's options, the service call, and what a result comes to (counts, the
 * output's suffix). Nothing here knows HTTP or the command line: each route writes its own
 * response headers from the result.
 */
import type { WrittenFormat } from '../../domain/formats.js';
import type { UploadedDocument } from '../context.js';
import type { DocumentServices } from '../document-services.js';
import { InvalidRequestError } from '../errors.js';

/** A text option with a closed set of values (JSON-schema-like, as OpenAPI shows it). */
export interface ChoiceField<T extends string = string> {
  readonly type: 'string';
  readonly enum: readonly T[];
  readonly default: T;
}

export interface FlagField {
  readonly type: 'boolean';
  readonly default: boolean;
}

export interface WholeNumberField {
  readonly type: 'integer';
  readonly minimum: number;
  readonly maximum: number;
  readonly default: number;
}

/** Free text a service resolver checks itself (a comma-separated list of types or countries). */
export interface ListField {
  readonly type: 'string';
  readonly format: 'comma-separated';
}

export type OptionField = ChoiceField | FlagField | WholeNumberField | ListField;
export type OptionFields = Readonly<Record<string, OptionField>>;

/**
 * The options as text, by field name: the route's multipart parts as sent, or the CLI
 * command's flags under the same names. An absent field takes its default.
 */
export type FieldValues = ReadonlyMap<string, string>;

/** What a result comes to: charging, batch manifests and the CLI's printed line. */
export interface ResultSummary {
  /** Regions or values covered; 0 means nothing was found (not charged, no output suffix). */
  readonly covered: number;
  /** Of them, covered although their check digit failed. */
  readonly unverified: number;
  /** Detections per type, where the endpoint counts them. */
  readonly perType: Readonly<Record<string, number>>;
}

/** Every file service answers with the written file and its format. */
export interface FileResult {
  readonly bytes: Buffer;
  readonly format: WrittenFormat;
}

export interface FileEndpoint<F extends OptionFields, O, R extends FileResult> {
  readonly fields: F;
  /** The options from their text; a value outside its field is refused (422 on the API). */
  readonly parse: (values: FieldValues) => O;
  /** In-process (CLI) or pooled (API): the caller picks the services. */
  readonly run: (services: DocumentServices, upload: UploadedDocument, options: O) => Promise<R>;
  readonly summarise: (result: R) => ResultSummary;
  /** Appended to the output's base name when something was covered: `card_masked.pdf`. */
  readonly suffix: string;
}

/** A choice field's value: trimmed, any case; absent or empty is the field's default. */
export function readChoice<T extends string>(
  values: FieldValues,
  name: string,
  field: ChoiceField<T>,
): T {
  const raw = values.get(name)?.trim().toLowerCase();
  if (raw === undefined || raw === '') return field.default;
  const value = field.enum.find((allowed) => allowed === raw);
  if (value === undefined) {
    throw new InvalidRequestError(`${name} must be one of ${field.enum.join(', ')}.`);
  }
  return value;
}

/** A flag's value: `true`/`false`, `1`/`0` or `yes`/`no`, any case; absent or empty: default. */
export function readFlag(values: FieldValues, name: string, field: FlagField): boolean {
  const raw = values.get(name)?.trim().toLowerCase() ?? '';
  if (raw === '') return field.default;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new InvalidRequestError(`${name} must be true or false.`);
}

/** A download keeps its plain name when nothing was covered: it is the input written anew. */
export function downloadSuffix(
  endpoint: { readonly suffix: string },
  summary: ResultSummary,
): string {
  return summary.covered > 0 ? endpoint.suffix : '';
}

/** Documents charged for one file: none when nothing was found. */
export function documentsCharged(summary: ResultSummary): number {
  return summary.covered > 0 ? 1 : 0;
}
