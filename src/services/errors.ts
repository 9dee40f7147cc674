/** Errors the services raise for a caller's mistake (the API maps them to 422). */
export class OutputFormatError extends Error {
  override name = 'OutputFormatError';
}

/** The document holds no card of the kind asked for (422 `no_document_detected`, not charged). */
export class NoDocumentError extends Error {
  override name = 'NoDocumentError';
}
