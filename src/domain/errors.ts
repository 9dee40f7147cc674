/**
 * Why a file could not be taken in. Codes are stable (they become the API's `error` values);
 * messages describe the problem, never the document's content.
 */
export type DocumentErrorCode =
  | 'empty_file'
  | 'unsupported_file_type'
  | 'corrupt_file'
  | 'truncated_file'
  | 'image_too_large'
  | 'page_too_large'
  | 'too_many_objects'
  | 'content_too_large'
  | 'nesting_too_deep'
  | 'too_many_pages'
  /** A TIFF whose chain of page directories comes back to one it has passed. */
  | 'tiff_ifd_loop'
  | 'pdf_encrypted'
  | 'pdf_password_incorrect'
  /** Masking: a covered number still read in the output after its cover was widened. */
  | 'residual_check_failed';

export class DocumentError extends Error {
  override name = 'DocumentError';
  constructor(
    readonly code: DocumentErrorCode,
    message: string,
  ) {
    super(message);
  }
}
