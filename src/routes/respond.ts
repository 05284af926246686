import { Readable } from 'node:stream';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RouteHandlerMethod,
  onSendHookHandler,
} from 'fastify';
import { CACHE_CHANGING, CACHE_SETTLED, etagMatches, weakEtag } from '../http/caching.js';
import { ALLOWED_METHODS, CONTENT_TYPES, paramsMatcher } from '../http/server-guards.js';

export { CONTENT_TYPES };
import { problemsText } from '../params/problems.js';

/**
 * A read-only endpoint: GET, HEAD and OPTIONS for CORS preflight. Every other method gets 405
 * with `Allow` before Fastify sees it (server-guards.ts).
 *
 * HEAD is a route of its own with the same handler, not the one Fastify derives from GET: that
 * one drops the body before compression sees it, so its Content-Length and Content-Encoding
 * were those of the uncompressed answer. Here the answer goes through the same hooks as GET's,
 * and the body is dropped after them (see dropHeadBodies).
 */
export function readOnlyEndpoint(
  app: FastifyInstance,
  url: string,
  schema: FastifySchema,
  handler: RouteHandlerMethod,
): void {
  app.get(url, { schema, exposeHeadRoute: false }, handler);
  app.head(url, { schema: { ...schema, hide: true } }, handler);
  // A preflight for a path GET does not answer (a date segment `foo`) is a 404, as GET's.
  const answered = paramsMatcher(schema.params);
  app.options(url, { schema: { hide: true } }, (request, reply) =>
    !answered(request.params)
      ? reply.callNotFound()
      : reply
          .code(204)
          .header('access-control-allow-methods', ALLOWED_METHODS)
          .header(
            'access-control-allow-headers',
            request.headers['access-control-request-headers'] ?? '*',
          )
          .header('access-control-max-age', '86400')
          .header('allow', ALLOWED_METHODS)
          .send(),
  );
}

/**
 * Drops the body of every HEAD answer after the other hooks have shaped it, keeping the length
 * of a body whose length is known. Registered after compression, whose hook it must follow.
 */
export function dropHeadBodies(app: FastifyInstance): void {
  const dropBody: onSendHookHandler = (_request, reply, payload, done) => {
    // Any stream (compression's are not node:stream's own): read to its end, unsent.
    if (typeof (payload as { resume?: unknown } | null)?.resume === 'function')
      (payload as Readable).resume();
    else if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      if (!reply.hasHeader('content-length'))
        reply.header('content-length', Buffer.byteLength(payload));
    }
    done(null, null);
  };
  app.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD') return;
    const hooks = route.onSend;
    route.onSend = [
      ...(hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]),
      dropBody,
    ];
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
  /**
   * Whether there is an answer at all is known only once the body is computed (the query
   * endpoint's SQL may be refused): `If-None-Match: *` then gets its 304 only after it is.
   */
  validatedByBody?: boolean;
}

/** A body: text, or text produced piece by piece; either may first wait for what it needs. */
type Body = string | Buffer | AsyncIterable<string>;

/**
 * Sets the caching and problem headers, then answers 304 when the client's copy is current;
 * otherwise sends the body, produced only then (a function, so that 304s run no query). A body
 * that fails before it resolves is an error answer; a streamed one's head is sent with its first
 * piece.
 */
export function sendRepresentation(
  request: FastifyRequest,
  reply: FastifyReply,
  representation: Representation,
  body: () => Body | Promise<Body>,
): FastifyReply | Promise<FastifyReply> {
  const etag = weakEtag(...representation.etagParts);
  reply
    .header('etag', etag)
    .header('cache-control', representation.settled ? CACHE_SETTLED : CACHE_CHANGING)
    // In lower case, as the compression hook writes it: it adds the name again otherwise.
    .header('vary', 'accept-encoding');
  if (representation.problems && representation.problems.length > 0) {
    reply.header('x-error', problemsText(representation.problems));
  }
  for (const [name, value] of Object.entries(representation.extraHeaders ?? {}))
    reply.header(name, value);
  const ifNoneMatch = request.headers['if-none-match'];
  const bodyFirst = representation.validatedByBody === true;
  if (etagMatches(ifNoneMatch, etag, !bodyFirst)) return reply.code(304).send();
  reply.type(representation.contentType);
  const content = body();
  if (bodyFirst && etagMatches(ifNoneMatch, etag)) {
    // Only the wildcard matched, and the body did not fail: there is an answer.
    return Promise.resolve(content).then(() => reply.code(304).send());
  }
  return content instanceof Promise
    ? content.then((resolved) => sendBody(request, reply, resolved))
    : sendBody(request, reply, content);
}

function sendBody(request: FastifyRequest, reply: FastifyReply, content: Body): FastifyReply {
  if (typeof content === 'string' || Buffer.isBuffer(content)) return reply.send(content);
  // A streamed body is produced lazily: HEAD never starts it, so it runs no query. One piece
  // (at most about 64 KB of text, see rate-writers.ts) waits for the socket: a slow reader holds
  // little.
  return reply.send(
    Readable.from(request.method === 'HEAD' ? [] : content, { objectMode: true, highWaterMark: 1 }),
  );
}
