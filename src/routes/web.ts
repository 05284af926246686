import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { weakEtag, etagMatches } from '../http/caching.js';
import { readOnlyEndpoint } from './respond.js';

/** Hashed asset names never change content: browsers may keep them for a year. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page names the current assets, so it is cached briefly. */
export const CACHE_PAGE = 'public, max-age=60';

/** The page talks to this origin only: no other host is ever contacted. */
const PAGE_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  "style-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const ASSET_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

interface StaticFile {
  body: Buffer;
  contentType: string;
  etag: string;
}

export interface WebPage {
  page: StaticFile;
  assets: Map<string, StaticFile>;
}

/**
 * The built page (`npm ci` builds it into dist/web), read once: from beside the compiled
 * routes, or from dist/ when the service runs from its TypeScript sources. Null when it was
 * never built; `/` then answers with the JSON index only.
 */
export function loadWebPage(
  folders: readonly string[] = [
    fileURLToPath(new URL('../web/', import.meta.url)),
    fileURLToPath(new URL('../../dist/web/', import.meta.url)),
  ],
): WebPage | null {
  const folder = folders.find((candidate) => existsSync(join(candidate, 'index.html')));
  if (!folder) return null;
  const file = (path: string, contentType: string): StaticFile => {
    const body = readFileSync(path);
    return { body, contentType, etag: weakEtag('web', body.toString('base64')) };
  };
  const assets = new Map<string, StaticFile>();
  const assetFolder = join(folder, 'assets');
  if (existsSync(assetFolder)) {
    for (const name of readdirSync(assetFolder)) {
      const type = ASSET_TYPES[name.split('.').pop() ?? ''];
      if (type) assets.set(name, file(join(assetFolder, name), type));
    }
  }
  return { page: file(join(folder, 'index.html'), 'text/html; charset=utf-8'), assets };
}

/** The quality a header's Accept gives `type` (RFC 9110 §12.5.1; the most specific range wins). */
function acceptQuality(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = -1;
  let quality = 0;
  for (const part of accept.split(',')) {
    const [range = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const specificity = range === type ? 3 : range === `${major}/*` ? 2 : range === '*/*' ? 1 : 0;
    if (specificity === 0 || specificity < best) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const value = q ? Number(q.slice(2)) : 1;
    if (specificity > best) {
      best = specificity;
      quality = Number.isFinite(value) ? value : 0;
    }
  }
  return quality;
}

/** A browser's request: its Accept prefers HTML to JSON (a bare `*` / `*` does not). */
export function prefersHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return false;
  return acceptQuality(accept, 'text/html') > acceptQuality(accept, 'application/json');
}

function sendStatic(
  request: FastifyRequest,
  reply: FastifyReply,
  file: StaticFile,
  cacheControl: string,
): FastifyReply {
  reply
    .header('etag', file.etag)
    .header('cache-control', cacheControl)
    .header('x-content-type-options', 'nosniff');
  if (etagMatches(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
  return reply.type(file.contentType).send(file.body);
}

/** `/` for a browser: the page, which varies with Accept like the JSON index beside it. */
export function sendWebPage(
  request: FastifyRequest,
  reply: FastifyReply,
  web: WebPage,
): FastifyReply {
  reply
    .header('vary', 'accept, accept-encoding')
    .header('content-security-policy', PAGE_POLICY)
    .header('referrer-policy', 'no-referrer');
  return sendStatic(request, reply, web.page, CACHE_PAGE);
}

/** The page's scripts and styles under /assets/, by their hashed names. */
export function webRoutes(app: FastifyInstance, web: WebPage | null): void {
  // The names are the route's parameter schema, so that other methods and preflights on a
  // name that is not one get a 404, as GET does (server-guards.ts).
  const names = { type: 'string', enum: [...(web?.assets.keys() ?? [])] };
  const params = { type: 'object', properties: { name: names }, required: ['name'] };
  readOnlyEndpoint(app, '/assets/:name', { hide: true, params }, (request, reply) => {
    const { name } = request.params as { name: string };
    const file = web?.assets.get(name);
    if (!file) return reply.callNotFound();
    return sendStatic(request, reply, file, CACHE_IMMUTABLE);
  });
}
