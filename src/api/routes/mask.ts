/** POST /api/v1/mask-aadhaar and /api/v1/mask-pan: the masked file itself, with X-Masked-Count. */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import {
  MASK_AADHAAR,
  MASK_OPTION_FIELDS,
  MASK_PAN,
  type MaskingEndpoint,
} from '../../services/endpoints/mask.js';
import type { RouteKit } from '../route-kit.js';
import {
  DOCUMENT_CONTENT,
  fieldParts,
  PDF_PASSWORD_PART,
  uploadRouteSchema,
  type UploadForm,
} from '../route-schemas.js';
import type { MaskResult } from '../../services/mask-document.js';
import {
  documentHandler,
  RASTERISED_PAGES_SCHEMA,
  rasterisedPagesHeader,
  type ResultHeaders,
} from '../document-reply.js';

const maskHeaders: ResultHeaders<MaskResult> = (result) => [
  ['X-Masked-Count', String(result.maskedCount)],
  ['X-Unverified-Count', String(result.unverifiedCount)],
  ['X-Residual-Check', result.residualCheck],
  ...rasterisedPagesHeader(result.rasterisedPages),
];

/** The text parts both masking endpoints take (bulk.ts reads its batches with them too). */
export const MASK_FIELDS = [...Object.keys(MASK_OPTION_FIELDS), 'pdf_password'];

const fileResponse = {
  description:
    'The masked document (JPEG, PNG or PDF); when nothing was found, the same document written anew',
  content: DOCUMENT_CONTENT,
  headers: {
    'X-Masked-Count': {
      type: 'integer',
      description: 'Regions covered; 0 = nothing found',
    },
    'X-Unverified-Count': {
      type: 'integer',
      description:
        'Of the regions, numbers covered although their check digit failed (on an Aadhaar card or letter, or after an Aadhaar label); always 0 for PAN',
    },
    'X-Residual-Check': {
      type: 'string',
      enum: ['passed', 'none', 'skipped'],
      description:
        'passed: every covered number was read again in the output (OCR of the covered regions at four rotations, or the saved PDF text) and not found; none: no number was covered; skipped: the check is turned off (PARDA_RESIDUAL_CHECK=off). A number still readable fails the request with 422 residual_check_failed',
    },
    'X-Rasterised-Pages': RASTERISED_PAGES_SCHEMA,
  },
};

/** The masking form, for one document (`file`) or a batch (`files`). */
export function maskForm(route: MaskEndpoint, document: UploadForm['document']): UploadForm {
  return {
    document,
    formats: 'JPEG, PNG or PDF',
    parts: {
      ...fieldParts(MASK_OPTION_FIELDS, {
        output_format:
          "`same`: the input's format; `jpg`: a JPEG (a single-page document only); `pdf`: a PDF.",
        mask_qr: `\`xml\`: cover ${route.defaultQr}; \`all\`: cover every QR code.`,
      }),
      pdf_password: PDF_PASSWORD_PART,
    },
  };
}

/** One masking route: its descriptor, where it is served and what its documentation says. */
export interface MaskEndpoint {
  readonly path: string;
  readonly summary: string;
  /** What `mask_qr=xml`, the default, covers on this endpoint. */
  readonly defaultQr: string;
  readonly descriptor: MaskingEndpoint;
}

export const AADHAAR_MASKING: MaskEndpoint = {
  path: 'aadhaar',
  summary: 'Mask Aadhaar numbers: cover the first eight digits, keep the last four',
  defaultQr: 'legacy XML QR codes, which hold the full number, and QR codes that cannot be decoded',
  descriptor: MASK_AADHAAR,
};

export const PAN_MASKING: MaskEndpoint = {
  path: 'pan',
  summary: 'Mask PAN numbers: cover the middle seven characters, keep the first two and the last',
  defaultQr: 'QR codes whose text holds a PAN, and QR codes that cannot be decoded',
  descriptor: MASK_PAN,
};

function maskRoute(app: FastifyInstance, kit: RouteKit, route: MaskEndpoint): void {
  app.post(
    `/api/v1/mask-${route.path}`,
    {
      schema: uploadRouteSchema({
        tag: 'masking',
        summary: route.summary,
        description:
          'Returns the document with the numbers covered, in the format asked for; when nothing ' +
          'is found, the same document written anew (X-Masked-Count: 0, not charged).',
        form: maskForm(route, 'file'),
        ok: fileResponse,
      }),
    },
    documentHandler(kit, route.descriptor, maskHeaders),
  );
}

export const maskRoutes: FastifyPluginAsync<RouteKit> = async (app, kit) => {
  maskRoute(app, kit, AADHAAR_MASKING);
  maskRoute(app, kit, PAN_MASKING);
  return Promise.resolve();
};
