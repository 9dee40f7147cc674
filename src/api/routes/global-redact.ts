/**
 * POST /api/v1/global/redact and /api/v1/global/batch/redact: global identifiers redacted in a
 * PDF, PNG, JPEG, WEBP, TIFF or BMP in one of five modes (README "Redacting files"). The single
 * route streams the file (or JSON with `response_mode=json`) with X-Entities-Found and
 * X-Entity-Types; the batch route answers JSON, one entry per file, one bad file failing only its
 * own entry. Charged one document per file in which something was redacted.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { batchCounts, errorFields, statusWord, type BatchWords } from '../../services/bulk.js';
import { documentsCharged, type ResultSummary } from '../../services/endpoints/file-endpoint.js';
import { GLOBAL_REDACT } from '../../services/endpoints/global-redact.js';
import type { GlobalRedactResult } from '../../services/redact-global.js';
import type { RouteKit } from '../route-kit.js';
import {
  fieldParts,
  GLOBAL_DOCUMENT_CONTENT,
  PDF_PASSWORD_PART,
  uploadRouteSchema,
  type FormPart,
  type UploadForm,
} from '../route-schemas.js';
import { GLOBAL_CHOICE_PARTS, GLOBAL_FORMATS_TEXT } from './global-detect.js';
import { contentType } from '../downloads.js';
import { runEndpointBatch } from '../batch.js';
import { choice } from '../form-fields.js';
import { readDocumentForm, readUpload } from '../uploads.js';
import {
  downloadName,
  RASTERISED_PAGES_SCHEMA,
  rasterisedPagesHeader,
  reportHeaders,
  sendDocument,
  type ResultHeaders,
} from '../document-reply.js';

/** The descriptor's fields, and the single route's choice of reply. */
const OPTION_FIELDS = [...Object.keys(GLOBAL_REDACT.fields), 'response_mode'];

function jsonBody(filename: string, result: GlobalRedactResult, summary: ResultSummary) {
  return {
    filename: downloadName(GLOBAL_REDACT, filename, result, summary),
    content_type: contentType(result.format),
    entities_found: result.entitiesFound,
    entity_types: result.types,
    rasterised_pages: result.rasterisedPages,
    file_base64: result.bytes.toString('base64'),
    report: result.report,
  };
}

const quotaOf = (request: FastifyRequest) => {
  const quota = request.account?.quota;
  return quota ? { used: String(quota.used), remaining: String(quota.remaining) } : undefined;
};

/** The global redaction form, for one document (`file`) or a batch (`files`). */
function globalRedactForm(document: UploadForm['document']): UploadForm {
  const { mode, mask_keep, strip_metadata } = fieldParts(GLOBAL_REDACT.fields, {
    mode:
      '`box`: a black box; `blur`: blurred pixels (images only); `mask`: the value with all but ' +
      'its last `mask_keep` characters as asterisks; `token`: a type token (`[IN_PAN_1]`), the ' +
      'same for one value throughout the document; `pseudonym`: a fake value of the same type ' +
      'from a reserved range, never a real one.',
    entity_types: '',
    countries: '',
    mask_keep: 'Characters the `mask` mode leaves visible at the end of each value.',
    strip_metadata:
      'Remove the document metadata (PDF info and XMP, EXIF, comments) from the output.',
  });
  const responseMode: Record<string, FormPart> =
    document === 'file' ? { response_mode: RESPONSE_MODE_PART } : {};
  return {
    document,
    formats: GLOBAL_FORMATS_TEXT,
    parts: {
      mode,
      ...GLOBAL_CHOICE_PARTS,
      mask_keep,
      strip_metadata,
      ...responseMode,
      pdf_password: PDF_PASSWORD_PART,
    },
  };
}

const RESPONSE_MODE_PART: FormPart = {
  schema: { type: 'string', enum: ['binary', 'json'], default: 'binary' },
  description:
    '`binary`: the redacted file itself; `json`: a JSON body with the file in base64 and the ' +
    'detect report.',
};

function singleRoute(app: FastifyInstance, kit: RouteKit): void {
  app.post(
    '/api/v1/global/redact',
    {
      schema: uploadRouteSchema({
        tag: 'global',
        summary: 'Redact global identifiers in a document',
        description:
          'Every value found is replaced in the chosen mode. A PDF keeps its text: each value ' +
          'is removed from the content stream; images are changed in their pixels.',
        form: globalRedactForm('file'),
        ok: {
          description:
            'The redacted file (X-Entities-Found, X-Entity-Types), or with response_mode=json ' +
            '{filename, content_type, entities_found, entity_types, file_base64, report}',
          content: {
            ...GLOBAL_DOCUMENT_CONTENT,
            'application/json': { schema: { type: 'object', additionalProperties: true } },
          },
          headers: {
            'X-Entities-Found': { type: 'integer', description: 'Values replaced; 0 = none' },
            'X-Entity-Types': {
              type: 'string',
              description: 'The types replaced, comma-separated, in catalogue order',
            },
            'X-Rasterised-Pages': RASTERISED_PAGES_SCHEMA,
          },
        },
      }),
    },
    async (request, reply) => {
      await kit.metering.require(request, 1);
      const form = await readDocumentForm(request, kit.settings.maxUploadBytes, OPTION_FIELDS);
      const options = GLOBAL_REDACT.parse(form.fields);
      const responseMode = choice(form.fields, 'response_mode', ['binary', 'json'], 'binary');
      const result = await GLOBAL_REDACT.run(kit.documents, form.upload, options);
      const summary = GLOBAL_REDACT.summarise(result);
      await kit.metering.charge(request, documentsCharged(summary));
      if (responseMode === 'json') {
        reportHeaders(reply, globalHeaders, result);
        const body = jsonBody(form.upload.filename, result, summary);
        return reply.send({ ...body, report: { ...body.report, quota: quotaOf(request) } });
      }
      return sendDocument(
        reply,
        GLOBAL_REDACT,
        form.upload.filename,
        result,
        summary,
        globalHeaders,
      );
    },
  );
}

const globalHeaders: ResultHeaders<GlobalRedactResult> = (result) => [
  ['X-Entities-Found', String(result.entitiesFound)],
  ['X-Entity-Types', result.types.join(',')],
  ...rasterisedPagesHeader(result.rasterisedPages),
];

function batchRoute(app: FastifyInstance, kit: RouteKit): void {
  app.post(
    '/api/v1/global/batch/redact',
    {
      schema: uploadRouteSchema({
        tag: 'global',
        summary: 'Redact global identifiers in many documents; JSON out',
        description:
          'At most PARDA_MAX_BATCH_FILES files; the options of /global/redact apply to every ' +
          'file. The quota must hold the whole batch before any work.',
        form: globalRedactForm('files'),
        ok: {
          description:
            '{submitted, redacted, nothing_found, failed, documents_charged, quota, results}',
          content: {
            'application/json': { schema: { type: 'object', additionalProperties: true } },
          },
        },
      }),
    },
    async (request, reply) => {
      const form = await readUpload(request, {
        fileField: 'files',
        maxFiles: kit.settings.maxBatchFiles,
        fields: [...OPTION_FIELDS, 'pdf_password'],
        maxFileBytes: kit.settings.maxUploadBytes,
      });
      // The whole batch must fit the quota before any work.
      const entries = await runEndpointBatch(request, kit, GLOBAL_REDACT, form);
      const counts = batchCounts(entries, REDACTED);
      await kit.metering.charge(request, counts.documents_charged);
      return reply
        .header('X-Entities-Found', String(entries.reduce((n, e) => n + e.covered, 0)))
        .send({
          ...counts,
          quota: quotaOf(request),
          results: entries.map((entry) => ({
            index: entry.index,
            filename: entry.filename,
            status: statusWord(entry.status, REDACTED),
            ...(entry.result
              ? jsonBody(entry.filename, entry.result, GLOBAL_REDACT.summarise(entry.result))
              : {}),
            ...errorFields(entry),
          })),
        });
    },
  );
}

const REDACTED: BatchWords = { done: 'redacted', nothingFound: 'nothing_found' };

export const globalRedactRoutes: FastifyPluginAsync<RouteKit> = async (app, kit) => {
  singleRoute(app, kit);
  batchRoute(app, kit);
  return Promise.resolve();
};
