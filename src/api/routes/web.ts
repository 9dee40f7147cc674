/**
 * GET / and GET /web/*: the web tool (docs/web.md), a page of plain HTML, CSS and browser
 * modules in the package's `web/` folder, and the pdf.js build it previews PDFs with. Public:
 * the page needs no key to load; every API call it makes sends the key the user pasted.
 *
 * Only files found when the folder is first read are served, looked up by their exact name:
 * a request path is never joined onto a folder, so `..`, encoded or not, names nothing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ApiError } from '../errors.js';

/** A page of this origin's own scripts, styles and images; nothing inline, nothing framed. */
export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  // Previews are object URLs of the files the user chose and of the results.
  "img-src 'self' blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.ttf': 'font/ttf',
  '.pfb': 'application/octet-stream',
};

/** The pdf.js files served under /web/vendor/: its module, its worker and its standard fonts. */
const PDFJS_FILES = ['build/pdf.min.mjs', 'build/pdf.worker.min.mjs'];
const PDFJS_FONTS = 'standard_fonts';

interface Asset {
  readonly bytes: Buffer;
  readonly type: string;
  readonly etag: string;
  /** The tool's own files are revalidated each time; the vendor build may be kept a day. */
  readonly cacheControl: string;
}

/**
 * The package folder: the first one above this module holding package.json and `web/`, so
 * that the module finds it from src/api/routes/ or, compiled, from dist/src/api/routes/ (or
 * any other build folder).
 */
export function packageRoot(from = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    if (
      existsSync(path.join(dir, 'package.json')) &&
      existsSync(path.join(dir, 'web', 'index.html'))
    ) {
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('web/index.html not found above this module');
    dir = parent;
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

function asset(bytes: Buffer, file: string, cacheControl: string): Asset | null {
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()];
  if (!type) return null;
  const hash = crypto.createHash('sha256').update(bytes).digest('base64url').slice(0, 27);
  return { bytes, type, etag: `"${hash}"`, cacheControl };
}

/** Every servable file by its URL path below /web/ (`app.js`, `vendor/pdf.min.mjs`, ...). */
async function loadAssets(root: string): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  const add = async (urlPath: string, file: string, cacheControl: string) => {
    const found = asset(await fs.readFile(file), file, cacheControl);
    if (found) assets.set(urlPath, found);
  };
  const web = path.join(root, 'web');
  for (const file of await filesUnder(web)) {
    await add(file.split(path.sep).join('/'), path.join(web, file), 'no-cache');
  }
  const pdfjs = path.join(root, 'node_modules', 'pdfjs-dist');
  const vendorCache = 'public, max-age=86400';
  for (const file of PDFJS_FILES) {
    await add(`vendor/${path.basename(file)}`, path.join(pdfjs, file), vendorCache);
  }
  for (const file of await filesUnder(path.join(pdfjs, PDFJS_FONTS))) {
    await add(`vendor/${PDFJS_FONTS}/${file}`, path.join(pdfjs, PDFJS_FONTS, file), vendorCache);
  }
  return assets;
}

function send(reply: FastifyReply, found: Asset, ifNoneMatch: string | undefined) {
  void reply
    .header('Content-Security-Policy', WEB_CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', found.cacheControl)
    .header('ETag', found.etag);
  if (ifNoneMatch === found.etag) return reply.code(304).send();
  return reply.header('Content-Type', found.type).send(found.bytes);
}

const notFound = () => new ApiError('not_found', 'No such file of the web tool.');

export const webRoutes: FastifyPluginAsync<{ root?: string }> = async (app, options) => {
  let assets: Promise<Map<string, Asset>> | undefined;
  // Read once, on the first request: building the app (every test does) costs nothing.
  const lookup = async (name: string) => {
    assets ??= loadAssets(options.root ?? packageRoot());
    return (await assets).get(name);
  };
  const config = { public: true };
  const schema = { hide: true };

  app.get('/', { config, schema }, async (request, reply) => {
    const page = await lookup('index.html');
    if (!page) throw notFound();
    return send(reply, page, request.headers['if-none-match']);
  });

  app.get<{ Params: { '*': string } }>('/web/*', { config, schema }, async (request, reply) => {
    const found = await lookup(request.params['*']);
    if (!found) throw notFound();
    return send(reply, found, request.headers['if-none-match']);
  });
  return Promise.resolve();
};
