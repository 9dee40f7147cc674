/**
 * mask-aadhaar and mask-pan (POST /api/v1/mask-*, `parda mask-*`, and the bulk routes): the
 * same fields and result, a different service.
 */
import type { OutputFormat } from '../../domain/formats.js';
import type { MaskFileOptions } from '../document-services.js';
import type { MaskQr, MaskResult } from '../mask-document.js';
import {
  readChoice,
  type ChoiceField,
  type FileEndpoint,
  type FieldValues,
  type ResultSummary,
} from './file-endpoint.js';

export const MASK_OPTION_FIELDS = {
  output_format: { type: 'string', enum: ['same', 'jpg', 'pdf'], default: 'same' },
  mask_qr: { type: 'string', enum: ['xml', 'all'], default: 'xml' },
} as const satisfies {
  output_format: ChoiceField<OutputFormat>;
  mask_qr: ChoiceField<MaskQr>;
};

export function parseMaskOptions(values: FieldValues): MaskFileOptions {
  return {
    outputFormat: readChoice(values, 'output_format', MASK_OPTION_FIELDS.output_format),
    maskQr: readChoice(values, 'mask_qr', MASK_OPTION_FIELDS.mask_qr),
  };
}

function summariseMasking(result: MaskResult): ResultSummary {
  return {
    covered: result.maskedCount,
    unverified: result.unverifiedCount,
    perType: {},
  };
}

export type MaskingEndpoint = FileEndpoint<typeof MASK_OPTION_FIELDS, MaskFileOptions, MaskResult>;

const masking = (run: MaskingEndpoint['run']): MaskingEndpoint => ({
  fields: MASK_OPTION_FIELDS,
  parse: parseMaskOptions,
  run,
  summarise: summariseMasking,
  suffix: '_masked',
});

export const MASK_AADHAAR = masking((services, upload, options) =>
  services.maskAadhaar(upload, options),
);

export const MASK_PAN = masking((services, upload, options) => services.maskPan(upload, options));
