/**
 * JSON bodies that must be UTF-8. Fastify's own parser decodes with replacement characters, so
 * a body in another encoding would be redacted as text the client never sent; here such a body
 * is refused. Installed inside one route plugin, it replaces the JSON parser there only.
 */
import type { FastifyInstance } from 'fastify';

export function installStrictUtf8Json(app: FastifyInstance, invalid: () => Error): void {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // The default parser, with its guard against __proto__ and constructor keys.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = decoder.decode(body as Buffer);
    } catch {
      done(invalid(), undefined);
      return;
    }
    void parseJson(request, text, done);
  });
}
