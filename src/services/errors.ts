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
