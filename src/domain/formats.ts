/** The formats a result is written in, with the MIME type and file extension of each. */
export type OutputFormat = 'same' | 'jpg' | 'pdf';
/** Every format a response may carry (the global endpoints return WEBP, TIFF and BMP too). */
export type WrittenFormat = 'jpeg' | 'png' | 'pdf' | 'webp' | 'tiff' | 'bmp';

/** The formats the Indian endpoints accept (masking, extraction, verification, /redact-pii). */
export const INDIAN_INPUTS: readonly WrittenFormat[] = ['jpeg', 'png', 'pdf'];
/** The formats the global endpoints accept. */
export const GLOBAL_INPUTS: readonly WrittenFormat[] = [
  'jpeg',
  'png',
  'pdf',
  'webp',
  'tiff',
  'bmp',
];

export const MIME_TYPES: Record<WrittenFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  pdf: 'application/pdf',
  webp: 'image/webp',
  tiff: 'image/tiff',
  bmp: 'image/bmp',
};

export const EXTENSIONS: Record<WrittenFormat, string> = {
  jpeg: 'jpg',
  png: 'png',
  pdf: 'pdf',
  webp: 'webp',
  tiff: 'tiff',
  bmp: 'bmp',
};
