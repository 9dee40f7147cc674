/** Builders for the parts of route schemas (OpenAPI and response serialisation) that recur. */

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** `{name: {type}}` for each name, in order: the properties of an object whose fields share one type. */
export function propertiesOfType(
  type: JsonType | readonly JsonType[],
  names: readonly string[],
): Record<string, { type: JsonType | JsonType[] }> {
  return Object.fromEntries(
    names.map((name) => [name, { type: typeof type === 'string' ? type : [...type] }]),
  );
}

/**
 * The schema of an endpoint that takes a multipart upload under an API key: its success
 * response (`ok`), and the shared error body (errors.ts) for every refusal and failure.
 */
export function uploadRouteSchema(route: {
  tag: string;
  summary: string;
  description: string;
  ok: object;
}) {
  return {
    tags: [route.tag],
    summary: route.summary,
    description: route.description,
    consumes: ['multipart/form-data'],
    security: [{ ApiKey: [] }],
    response: { 200: route.ok, '4xx': { $ref: 'ErrorBody#' }, '5xx': { $ref: 'ErrorBody#' } },
  };
}
