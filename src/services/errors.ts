/** Errors the services raise for a caller's mistake (the API maps them to 422). */
export class OutputFormatError extends Error {
  override name = 'OutputFormatError';
}
