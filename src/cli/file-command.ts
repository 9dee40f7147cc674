/**
 * A file endpoint on a local file, no key: what `parda mask-aadhaar`, `mask-pan`, `redact-pii`
 * and `redact` share. The result is written next to the input as `<name><suffix>.<ext>`
 * (`card_masked.pdf`) unless `-o` names it. Exit status: 0 something covered, 3 nothing found
 * (the output is then the input written anew), 1 error.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadSettings, type Settings } from '../config/settings.js';
import { EXTENSIONS, type WrittenFormat } from '../domain/formats.js';
import { serviceContext, type UploadedDocument } from '../services/context.js';
import { inProcessServices } from '../services/document-services.js';
import type {
  FieldValues,
  FileEndpoint,
  FileResult,
  OptionFields,
  ResultSummary,
} from '../services/endpoints/file-endpoint.js';
import { closeEngines } from '../services/engines.js';

export const NOTHING_FOUND_EXIT = 3;

/** A local file as the services take an upload: its base name stands for the client's. */
export function localUpload(input: string, bytes: Buffer, pdfPassword?: string): UploadedDocument {
  return {
    bytes,
    filename: path.basename(input),
    ...(pdfPassword === undefined ? {} : { pdfPassword }),
  };
}

/** `<dir>/<name><suffix>.<ext>`: the output beside its input, in the format written. */
function outputBeside(input: string, suffix: string, format: WrittenFormat): string {
  const parsed = path.parse(input);
  return path.join(parsed.dir, `${parsed.name}${suffix}.${EXTENSIONS[format]}`);
}

/** Flags under the endpoint's field names; a flag not given is left out (the field's default). */
export function fieldValues(flags: Readonly<Record<string, string | undefined>>): FieldValues {
  const given = Object.entries(flags).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  return new Map(given);
}

/** The flags every file command takes besides the endpoint's own. */
export interface FileFlags {
  output?: string;
  pdfPassword?: string;
}

/** One command over one endpoint: its flags as the endpoint's fields, and what it prints. */
export interface FileCommand<F extends OptionFields, O, R extends FileResult> {
  readonly endpoint: FileEndpoint<F, O, R>;
  readonly values: FieldValues;
  /** Before the options are parsed (global redaction loads rule plugins, which add types). */
  readonly prepare?: (settings: Settings) => Promise<unknown>;
  /** The stdout line when something was covered. */
  readonly done: (summary: ResultSummary, output: string) => string;
  /** The stderr line when nothing was found. */
  readonly nothingFound: (output: string) => string;
}

export async function runFileCommand<F extends OptionFields, O, R extends FileResult>(
  input: string,
  flags: FileFlags,
  command: FileCommand<F, O, R>,
): Promise<void> {
  const { endpoint } = command;
  const settings = loadSettings();
  await command.prepare?.(settings);
  // Options first: a bad one is refused before the file is read.
  const options = endpoint.parse(command.values);
  const bytes = await fs.readFile(input);
  try {
    const services = inProcessServices(serviceContext(settings));
    const upload = localUpload(input, bytes, flags.pdfPassword);
    const result = await endpoint.run(services, upload, options);
    const summary = endpoint.summarise(result);
    const output = flags.output ?? outputBeside(input, endpoint.suffix, result.format);
    await fs.writeFile(output, result.bytes);
    if (summary.covered === 0) {
      console.error(command.nothingFound(output));
      process.exitCode = NOTHING_FOUND_EXIT;
    } else {
      console.log(command.done(summary, output));
    }
  } finally {
    await closeEngines();
  }
}

/** `type n, type n`: detections per type, for the printed line. */
export function perTypeList(summary: ResultSummary): string {
  return Object.entries(summary.perType)
    .map(([type, n]) => `${type} ${n}`)
    .join(', ');
}
