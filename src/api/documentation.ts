/** The OpenAPI document (from the routes' schemas) and its UI at /docs, both public. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

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
          'Masks, redacts, extracts and verifies identifiers in identity documents and other documents.',
        version: '1',
      },
      components: {
        securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
