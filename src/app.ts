import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Server } from 'node:http';
import { utcDateOf } from './dates.js';
import type { Env } from './env.js';
import { ClientGone, DatabaseUnavailable, HttpProblem, unavailable } from './errors.js';
import { errorText, type ErrorFormat } from './format/document-writers.js';
import { catalogRoutes } from './routes/catalog.js';
import { docsRoutes } from './routes/docs.js';
import type { ServiceContext } from './routes/context.js';
import { OPENAPI_TAGS, metaRoutes } from './routes/meta.js';
import { queryRoutes } from './routes/query.js';
import { rateRoutes } from './routes/rates.js';
import { statusRoutes } from './routes/status.js';
import { loadWebPage, webRoutes, type WebPage } from './routes/web.js';
import { dropHeadBodies, queryStringOf } from './routes/respond.js';
import { COMPRESSION, ResponseCache } from './http/response-cache.js';
import { noteLogged } from './logging.js';
import type { Store } from './store/store.js';
import { MAX_SQL_LENGTH } from './store/sql-guard.js';
import {
  ALLOWED_METHODS,
  CONTENT_TYPES,
  CORS_HEADERS,
  DEFAULT_CONNECTION_LIMITS,
  answerClientError,
  createGuardedServer,
  EndpointPaths,
  noEndpointText,
  formatOfQuery,
  prettyPrintOfQuery,
  type ConnectionLimits,
} from './http/server-guards.js';
import { VERSION } from './version.js';

export interface AppOptions {
  store: Store;
  /** Fastify's logger setting: false in tests, true (or pino options) when serving. */
  logger?: boolean | object;
  /** Today's UTC date; defaults to the clock. */
  today?: () => string;
  query?: Partial<QueryLimits>;
  connections?: Partial<ConnectionLimits>;
  /** Environment of ingestion (API keys), for the status endpoint; defaults to process.env. */
  ingestEnv?: Env;
  /** False when the service runs with --no-ingest: the status endpoint says so. */
  ingesting?: boolean;
  /** The sources this process keeps current when it ingests (FXRATES_INGEST_SOURCES); all when absent. */
  ingestSources?: readonly string[];
  /** Sources being ingested right now, for the status endpoint. */
  runningSources?: () => ReadonlySet<string>;
  /** Whether this process ingests now (it holds the ingest lease); defaults to `ingesting`. */
  ingestRole?: () => 'ingesting' | 'serving';
  /** The built web page; defaults to the one `npm ci` built (none: `/` is the JSON index only). */
  web?: WebPage | null;
  /** When this process runs a source next, for the status endpoint. */
  nextAttempt?: (source: string) => Date | null;
  /** About how many rows one window of a long range returns; the default suits every range. */
  rowsPerWindow?: number;
  /**
   * Observations from which a range's statement sorts only the series that miss a day (the
   * engine's dialect has the default, SqlDialect.manyPairsFrom; 0 takes that form for every
   * range over every symbol).
   */
  manyPairsFrom?: number;
  /** How long a range's statement waits for the engine's memory before 503, in ms (30 s). */
  memoryWaitMs?: number;
}

export interface QueryLimits {
  /** Time limit of a query endpoint statement, counted from the request's arrival. */
  timeoutMs: number;
  maxRows: number;
  /** Bytes of rows in one answer at most. */
  maxBytes: number;
  /** Requests waiting for a sandbox at most; more get 503 with Retry-After. */
  maxWaiting: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  timeoutMs: 10_000,
  maxRows: 100_000,
  maxBytes: 16 * 1024 * 1024,
  maxWaiting: 16,
};

/** Builds the HTTP service around a store. It never listens: server.ts does, tests inject. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const today = options.today ?? utcToday();
  /** The paths of the GET routes, known once they are registered below. */
  const endpoints = new EndpointPaths();
  const answers = new ResponseCache(() => `${options.store.dataVersion()}|${today()}`);
  const context: ServiceContext = {
    store: options.store,
    today,
    query: { ...DEFAULT_QUERY_LIMITS, ...options.query },
    answers,
    rowsPerWindow: options.rowsPerWindow,
    manyPairsFrom: options.manyPairsFrom,
    memoryWaitMs: options.memoryWaitMs,
    ingest: {
      env: options.ingestEnv ?? process.env,
      enabled: options.ingesting ?? false,
      sources: options.ingestSources,
      running: options.runningSources ?? (() => new Set()),
      role: options.ingestRole ?? (() => (options.ingesting ? 'ingesting' : 'serving')),
      nextAttempt: options.nextAttempt ?? (() => null),
    },
  };
  const connections: ConnectionLimits = {
    ...DEFAULT_CONNECTION_LIMITS,
    // The query endpoint takes SQL of up to 100 KB in its URL, percent-encoded.
    maxHeaderSize: MAX_SQL_LENGTH * 3 + 16_384,
    ...options.connections,
  };
  const requestLogging = logsAtDebug(options.logger);
  const app: FastifyInstance = Fastify<Server>({
    logger: options.logger ?? false,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 200 },
    // A URL answered from the cache before is answered again at the socket, before routing.
    serverFactory: (handler) =>
      createGuardedServer(
        connections,
        (request, response) => {
          if (!answers.answer(request, response)) handler(request, response);
          else if (requestLogging) app.log.debug(`${request.url}: answered from the cache`);
        },
        endpoints,
      ),
    // Fastify's two lines per request (logged at debug, see logging.ts) cost time on every
    // request even when nothing prints them: they are made only when debug is on.
    logController: new AnswerLogController({ disableRequestLogging: !requestLogging }),
    clientErrorHandler: answerClientError,
    return503OnClosing: true,
    // Requests Fastify cannot even route (a malformed percent-escape in the path) get the
    // service's own error body too.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const { format, prettyPrint } = requestedStyle(request);
      reply
        .code(error.statusCode ?? 400)
        .header('cache-control', 'no-store')
        .headers(CORS_HEADERS)
        .type(CONTENT_TYPES[format])
        .send(errorText(format, error.message, prettyPrint));
    },
  });
  // Schemas document the API; parameters are parsed leniently by src/params (see routes/schemas.ts).
  app.setValidatorCompiler(() => () => true);

  app.addHook('onRoute', (route) => {
    if (route.method === 'GET') endpoints.add(route.url, route.schema?.params);
  });
  // Identity among the encodings negotiated, so that a client preferring it (identity;q=1,
  // gzip;q=0.5) gets it; it comes last, so that it is chosen only when preferred.
  await app.register(compress, {
    global: true,
    ...COMPRESSION,
    encodings: [...COMPRESSION.encodings, 'identity'],
  });
  dropHeadBodies(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'fxrates',
        version: VERSION,
        description:
          'Currency exchange rates from official publishers. Parameter problems never fail a request: the answer is for the most likely intended query, with the problem in the X-Error header (and the json key error).',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: '/', description: 'This service' }],
      // Every endpoint is public: no authentication.
      security: [],
      tags: OPENAPI_TAGS,
    },
  });

  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(CORS_HEADERS);
  });

  app.setErrorHandler((error: FastifyError | HttpProblem, request, reply) => {
    // No one to answer: the connection is gone (its close ended what the answer waited for).
    if (error instanceof ClientGone) return reply.code(499).send();
    // The database out of reach is no bug: a 503 as the others, with Retry-After, and not
    // logged per request (the store logs the outage once).
    if (error instanceof DatabaseUnavailable) {
      error = unavailable(error.message, error.retryAfterSeconds);
    }
    const status = error instanceof HttpProblem ? error.statusCode : (error.statusCode ?? 500);
    if (status >= 500 && !(error instanceof HttpProblem)) request.log.error(error);
    const message =
      status >= 500 && !(error instanceof HttpProblem) ? 'internal error' : error.message;
    const { format, prettyPrint } = requestedStyle(request);
    // Caching headers may already be set for the answer that failed; an error has none.
    reply.removeHeader('etag');
    reply
      .code(status)
      .headers(error instanceof HttpProblem ? error.headers : {})
      .header('cache-control', 'no-store')
      .type(CONTENT_TYPES[format])
      .send(errorText(format, message, prettyPrint));
  });
  app.setNotFoundHandler((request, reply) => {
    const { format, prettyPrint } = requestedStyle(request);
    // Requests from a socket never get here with another method (server-guards.ts answers
    // them first); requests injected in process do.
    if (!['GET', 'HEAD', 'OPTIONS'].includes(request.method) && endpoints.has(request.url)) {
      return reply
        .code(405)
        .header('allow', ALLOWED_METHODS)
        .header('cache-control', 'no-store')
        .type(CONTENT_TYPES[format])
        .send(errorText(format, `method ${request.method} is not allowed; use GET`, prettyPrint));
    }
    return reply
      .code(404)
      .header('cache-control', 'no-store')
      .type(CONTENT_TYPES[format])
      .send(errorText(format, noEndpointText(request.url), prettyPrint));
  });

  rateRoutes(app, context);
  catalogRoutes(app, context);
  queryRoutes(app, context);
  statusRoutes(app, context);
  const web = options.web === undefined ? loadWebPage() : options.web;
  webRoutes(app, web);
  metaRoutes(app, VERSION, web);
  docsRoutes(app, VERSION);
  return app;
}

/**
 * Request lines only at debug; but an answer cut after its headers were sent (its statement
 * failed part way through the rows) is logged as the error it is, at every level: its client saw
 * only a connection that ended early.
 */
class AnswerLogController extends LogController {
  override streamError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') {
      super.streamError(error, request, reply);
      return;
    }
    reply.log.error(
      { err: error },
      `${request.method} ${request.url}: the answer was cut after its headers were sent: ${error.message}`,
    );
    noteLogged(error);
  }
}

function logsAtDebug(logger: AppOptions['logger']): boolean {
  const level = typeof logger === 'object' ? (logger as { level?: unknown }).level : undefined;
  return level === 'debug' || level === 'trace';
}

/** Today's UTC date, computed again only when a day has passed. */
function utcToday(): () => string {
  let day = '';
  let nextMidnight = 0;
  return () => {
    const now = Date.now();
    if (now >= nextMidnight) {
      day = utcDateOf(new Date(now));
      nextMidnight = (Math.floor(now / 86_400_000) + 1) * 86_400_000;
    }
    return day;
  };
}

/** How an error body is written: in the request's `format`, if it is one, laid out as its `pretty_print` asks. */
function requestedStyle(request: FastifyRequest): { format: ErrorFormat; prettyPrint: boolean } {
  const queryString = queryStringOf(request);
  return { format: formatOfQuery(queryString), prettyPrint: prettyPrintOfQuery(queryString) };
}
