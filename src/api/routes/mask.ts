/** POST /api/v1/mask-aadhaar and /api/v1/mask-pan: the masked file itself, with X-Masked-Count. */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { UploadedDocument } from '../../services/context.js';
import type { MaskQr, MaskResult } from '../../services/mask-document.js';
import type { OutputFormat } from '../../domain/formats.js';
import type { RouteKit } from '../route-kit.js';
import { contentDisposition, contentType, outputName } from '../downloads.js';
import { choice } from '../form-fields.js';
import { readUpload, type UploadForm } from '../uploads.js';

const OUTPUT_FORMATS: readonly OutputFormat[] = ['same', 'jpg', 'pdf'];
const MASK_QR: readonly MaskQr[] = ['xml', 'all'];

/** The text parts both masking endpoints take. */
export const MASK_FIELDS = ['output_format', 'mask_qr', 'pdf_password'];

/** Options and the PDF password from a masking form, checked against the allowed values. */
export function maskFormOf(form: UploadForm) {
  const password = form.fields.get('pdf_password');
  return {
    options: {
      outputFormat: choice(form.fields, 'output_format', OUTPUT_FORMATS, 'same'),
      maskQr: choice(form.fields, 'mask_qr', MASK_QR, 'xml'),
    },
    uploads: form.files.map((file) => ({
      ...file,
      ...(password === undefined ? {} : { pdfPassword: password }),
    })),
  };
}

const fileResponse = {
  description:
    'The masked document (JPEG, PNG or PDF); when nothing was found, the same document written anew',
  content: {
    'image/jpeg': { schema: { type: 'string', format: 'binary' } },
    'image/png': { schema: { type: 'string', format: 'binary' } },
    'application/pdf': { schema: { type: 'string', format: 'binary' } },
  },
  headers: {
    'X-Masked-Count': {
      schema: { type: 'integer' },
      description: 'Regions covered; 0 = nothing found',
    },
    'X-Unverified-Count': {
      schema: { type: 'integer' },
      description:
        'Of the regions, numbers covered although their check digit failed (on an Aadhaar card or letter, or after an Aadhaar label); always 0 for PAN',
    },
    'X-Residual-Check': {
      schema: { type: 'string', enum: ['passed', 'none', 'skipped'] },
      description:
        'passed: every covered number was read again in the output (OCR of the covered regions at four rotations, or the saved PDF text) and not found; none: no number was covered; skipped: the check is turned off (PARDA_RESIDUAL_CHECK=off). A number still readable fails the request with 422 residual_check_failed',
    },
  },
};

/** One masking endpoint: which service masks, and what its documentation says. */
export interface MaskEndpoint {
  readonly path: string;
  readonly summary: string;
  /** What `mask_qr=xml`, the default, covers on this endpoint. */
  readonly defaultQr: string;
  readonly mask: (
    kit: RouteKit,
    file: UploadedDocument,
    options: { outputFormat: OutputFormat; maskQr: MaskQr },
  ) => Promise<MaskResult>;
}

export const AADHAAR_MASKING: MaskEndpoint = {
  path: 'aadhaar',
  summary: 'Mask Aadhaar numbers: cover the first eight digits, keep the last four',
  defaultQr: 'legacy XML QR codes, which hold the full number, and QR codes that cannot be decoded',
  mask: (kit, file, options) => kit.documents.maskAadhaar(file, options),
};

export const PAN_MASKING: MaskEndpoint = {
  path: 'pan',
  summary: 'Mask PAN numbers: cover the middle seven characters, keep the first two and the last',
  defaultQr: 'QR codes whose text holds a PAN, and QR codes that cannot be decoded',
  mask: (kit, file, options) => kit.documents.maskPan(file, options),
};

function maskRoute(app: FastifyInstance, kit: RouteKit, endpoint: MaskEndpoint): void {
  app.post(
    `/api/v1/mask-${endpoint.path}`,
    {
      schema: {
        tags: ['masking'],
        summary: endpoint.summary,
        description:
          'multipart/form-data: `file` (JPEG, PNG or PDF, required); `output_format` (`same` default, `jpg`, `pdf`); ' +
          `\`mask_qr\` (\`xml\` default: cover ${endpoint.defaultQr}; \`all\`: cover every QR code); ` +
          '`pdf_password` (for a password-protected PDF).',
        consumes: ['multipart/form-data'],
        security: [{ ApiKey: [] }],
        response: {
          200: fileResponse,
          '4xx': { $ref: 'ErrorBody#' },
          '5xx': { $ref: 'ErrorBody#' },
        },
      },
    },
    async (request, reply) => {
      await kit.metering.require(request, 1);
      const form = await readUpload(request, {
        fileField: 'file',
        maxFiles: 1,
        fields: MASK_FIELDS,
        maxFileBytes: kit.settings.maxUploadBytes,
      });
      const { options, uploads } = maskFormOf(form);
      const [file] = uploads;
      if (!file) throw new Error('readUpload returned no file');
      const result = await endpoint.mask(kit, file, options);
      await kit.metering.charge(request, result.maskedCount > 0 ? 1 : 0);
      const name = outputName(
        file.filename,
        result.format,
        result.maskedCount > 0 ? '_masked' : '',
      );
      return reply
        .header('X-Masked-Count', String(result.maskedCount))
        .header('X-Unverified-Count', String(result.unverifiedCount))
        .header('X-Residual-Check', result.residualCheck)
        .header('Content-Type', contentType(result.format))
        .header('Content-Disposition', contentDisposition(name))
        .send(result.bytes);
    },
  );
}

export const maskRoutes: FastifyPluginAsync<RouteKit> = async (app, kit) => {
  maskRoute(app, kit, AADHAAR_MASKING);
  maskRoute(app, kit, PAN_MASKING);
  return Promise.resolve();
};
