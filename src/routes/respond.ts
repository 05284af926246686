import { Readable } from 'node:stream';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RouteHandlerMethod,
} from 'fastify';
import { CACHE_CHANGING, CACHE_SETTLED, etagMatches, weakEtag } from '../http/caching.js';

export const CONTENT_TYPES = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
} as const;

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/**
 * A read-only endpoint: GET (and HEAD, which Fastify derives from it), OPTIONS for CORS
 * preflight, and 405 with `Allow` for every other method (CONTRACT §9).
 */
export function readOnlyEndpoint(
  app: FastifyInstance,
  url: string,
  schema: FastifySchema,
  handler: RouteHandlerMethod,
): void {
  app.get(url, { schema }, handler);
  app.route({
    method: ['OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url,
    schema: { hide: true },
    handler: (request, reply) => {
      if (request.method === 'OPTIONS') {
        return reply
          .code(204)
          .header('access-control-allow-methods', ALLOWED_METHODS)
          .header(
            'access-control-allow-headers',
            request.headers['access-control-request-headers'] ?? '*',
          )
          .header('access-control-max-age', '86400')
          .header('allow', ALLOWED_METHODS)
          .send();
      }
      return reply
        .code(405)
        .header('allow', ALLOWED_METHODS)
        .type(CONTENT_TYPES.json)
        .send(
          JSON.stringify({
            status: 'error',
            error: `method ${request.method} is not allowed; use GET`,
          }),
        );
    },
  });
}

/** The raw query string, so that parameter parsing sees names, case and repeats as sent. */
export function queryStringOf(request: FastifyRequest): string {
  const index = request.url.indexOf('?');
  return index < 0 ? '' : request.url.slice(index + 1);
}

export interface Representation {
  contentType: string;
  /** What the body is computed from (see weakEtag). */
  etagParts: readonly (string | number)[];
  /** Every date in the answer is settled: cache for a day. */
  settled: boolean;
  /** Parameter problems for X-Error. */
  problems?: readonly string[];
  extraHeaders?: Record<string, string>;
}

/**
 * Sets the caching and problem headers, then answers 304 when the client's copy is current;
 * otherwise sends the body, produced only then (a function, so that 304s run no query).
 */
export function sendRepresentation(
  request: FastifyRequest,
  reply: FastifyReply,
  representation: Representation,
  body: () => string | Promise<string> | AsyncIterable<string>,
): FastifyReply | Promise<FastifyReply> {
  const etag = weakEtag(...representation.etagParts);
  reply
    .header('etag', etag)
    .header('cache-control', representation.settled ? CACHE_SETTLED : CACHE_CHANGING)
    .header('vary', 'Accept-Encoding');
  if (representation.problems && representation.problems.length > 0) {
    reply.header('x-error', representation.problems.join('; '));
  }
  for (const [name, value] of Object.entries(representation.extraHeaders ?? {}))
    reply.header(name, value);
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  reply.type(representation.contentType);
  const content = body();
  if (content instanceof Promise) return content.then((text) => reply.send(text));
  if (typeof content === 'string') return reply.send(content);
  // A streamed body is produced lazily: HEAD never starts it, so it runs no query.
  return reply.send(Readable.from(request.method === 'HEAD' ? [] : content));
}
