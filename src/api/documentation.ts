/** The OpenAPI document (from the routes' schemas) and its UI at /docs, both public. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

const pascal = (words: readonly string[]) =>
  words.map((w) => (w[0] ?? '').toUpperCase() + w.slice(1)).join('');

/**
 * A stable operationId from the method and path, for client generators: a POST is named by its
 * path (`/api/v1/bulk/mask-aadhaar` is `bulkMaskAadhaar`), any other method is prefixed with
 * it (`GET /api/v1/account` is `getAccount`). A route's own `operationId` wins.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/v\d+\//, '/')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '');
  const name = pascal(words);
  return method === 'POST'
    ? name.charAt(0).toLowerCase() + name.slice(1)
    : method.toLowerCase() + name;
}

interface RouteSchema {
  readonly operationId?: string;
  readonly multipartBody?: object;
  readonly [key: string]: unknown;
}

/** Registered on the app itself (not a child context), so that it sees every route. */
export async function installDocumentation(app: FastifyInstance): Promise<void> {
  // The documentation UI is public; every other route needs a key unless it says otherwise.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...route.config, public: true };
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Parda',
        description:
          'Masks, redacts, extracts and verifies identifiers in identity documents and other ' +
          'documents. Every route but /health, the listings and these pages needs an API key in ' +
          'X-API-Key. Errors are JSON: `error` (a stable code to branch on) and `message`.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      },
    },
    // An upload route's form becomes its multipart requestBody here, in the document only.
    transform: ({ schema, url, route }) => {
      // Routes without a schema (the UI's own files) come with none.
      const { multipartBody, ...rest } = (schema as RouteSchema | undefined) ?? {};
      const method = [route.method].flat()[0] ?? 'GET';
      return {
        url,
        schema: {
          ...rest,
          operationId: rest.operationId ?? operationIdOf(method, url),
          ...(multipartBody ? { body: multipartBody, consumes: ['multipart/form-data'] } : {}),
        },
      };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', theme: { title: 'Parda API' } });
}
