/** Errors the services raise for a caller's mistake (the API maps them to 422). */
export class OutputFormatError extends Error {
  override name = 'OutputFormatError';
}

/** The document holds no card of the kind asked for (422 `no_document_detected`, not charged). */
export class NoDocumentError extends Error {
  override name = 'NoDocumentError';
}

/** A `types` name that is no Indian redaction type (422 `unknown_type`); the message lists the valid ones. */
export class UnknownTypeError extends Error {
  override name = 'UnknownTypeError';
}

/** A request option out of its range or set (422, with the option's own code). */
export class InvalidOptionError extends Error {
  override name = 'InvalidOptionError';
  constructor(
    readonly code: 'invalid_mode' | 'invalid_mask_keep' | 'invalid_country',
    message: string,
  ) {
    super(message);
  }
}

/** Text over the size the text endpoint accepts (413 `text_too_large`). */
export class TextTooLargeError extends Error {
  override name = 'TextTooLargeError';
}
