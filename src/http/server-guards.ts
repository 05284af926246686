import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errorText, type ErrorFormat } from '../format/document-writers.js';

export interface ConnectionLimits {
  /** Open connections at most; at the limit the oldest idle one makes room for a new one. */
  maxConnections: number;
  /** Time to receive a request's headers. */
  headersTimeoutMs: number;
  /** Time to receive a whole request. */
  requestTimeoutMs: number;
  /** Time an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** Time a connection may make no progress at all (a client that stops reading its answer). */
  socketTimeoutMs: number;
  maxHeaderSize: number;
  /**
   * Requests of one connection whose answers are not yet sent (pipelined), at most; and bytes
   * of answers a connection may leave unread when it sends its next request. A client past
   * either sends faster than it reads: its connection is closed, instead of every answer it
   * asked for being held in memory.
   */
  maxPipelined: number;
  maxUnreadBytes: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: 4096,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  socketTimeoutMs: 60_000,
  maxHeaderSize: 16_384,
  maxPipelined: 16,
  maxUnreadBytes: 8 * 1024 * 1024,
};

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';
/** On every answer, errors included: any origin may read it and the headers a client reads. */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'X-Error, X-Query, ETag',
} as const;
const ALLOWED = new Set(['GET', 'HEAD', 'OPTIONS']);

export const CONTENT_TYPES = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
} as const;

/** The format an error body is written in: the request's `format`, if it names one. */
export function formatOfQuery(queryString: string): ErrorFormat {
  for (const [name, value] of new URLSearchParams(queryString)) {
    if (name.toLowerCase() !== 'format') continue;
    const format = value.trim().toLowerCase();
    return format === 'csv' || format === 'xml' ? format : 'json';
  }
  return 'json';
}

/**
 * Whether an error body is laid out on lines: unless the request's `pretty_print` says false
 * (any other value keeps the default, as for the answers).
 */
export function prettyPrintOfQuery(queryString: string): boolean {
  for (const [name, value] of new URLSearchParams(queryString)) {
    if (name.toLowerCase() === 'pretty_print') return value.trim().toLowerCase() !== 'false';
  }
  return true;
}

function queryStringOfUrl(url: string | undefined): string {
  const index = url?.indexOf('?') ?? -1;
  return index < 0 ? '' : url!.slice(index + 1);
}

function pathOfUrl(url: string): string {
  const index = url.indexOf('?');
  return index < 0 ? url : url.slice(0, index);
}

/**
 * The paths the service answers, from the routes' patterns (`:name` one segment, `*` the
 * rest), so that a method it never allows can be told apart from a path it does not have. A
 * parameter whose schema has a `pattern` or an `enum` takes only the segments GET answers (a
 * date segment `foo` is a 404 for every method, as for GET).
 */
export class EndpointPaths {
  private readonly patterns: RegExp[] = [];

  add(route: string, params?: unknown): void {
    const pattern = route
      .split('/')
      .map((segment) =>
        segment.startsWith(':')
          ? `(?:${segmentPattern(params, segment.slice(1))})`
          : segment === '*'
            ? '.*'
            : escapedPattern(segment),
      )
      .join('/');
    this.patterns.push(new RegExp(`^${pattern}$`));
  }

  /** Whether some endpoint answers `url` (its query aside; trailing and doubled slashes as routing takes them). */
  has(url: string): boolean {
    let path = pathOfUrl(url).replace(/\/{2,}/g, '/');
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    return this.patterns.some((pattern) => pattern.test(path));
  }
}

/**
 * Whether each of a request's route parameters is a segment its route answers (see
 * EndpointPaths): what OPTIONS checks before it answers a preflight.
 */
export function paramsMatcher(params: unknown): (values: unknown) => boolean {
  const properties = propertiesOf(params);
  const patterns = Object.keys(properties).map(
    (name) => [name, new RegExp(`^(?:${segmentPattern(params, name)})$`)] as const,
  );
  return (values) =>
    patterns.every(([name, pattern]) =>
      pattern.test(String((values as Record<string, unknown> | undefined)?.[name] ?? '')),
    );
}

/** The segments a route parameter takes, as a pattern without anchors (see EndpointPaths). */
function segmentPattern(params: unknown, name: string): string {
  const schema = propertiesOf(params)[name] as { pattern?: unknown; enum?: unknown } | undefined;
  if (typeof schema?.pattern === 'string') return schema.pattern.replace(/^\^|\$$/g, '');
  if (Array.isArray(schema?.enum))
    return schema.enum.map((value) => escapedPattern(String(value))).join('|');
  return '[^/]+';
}

function propertiesOf(params: unknown): Record<string, unknown> {
  return (params as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
}

function escapedPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The error text of a path no endpoint answers. */
export function noEndpointText(url: string): string {
  return `no endpoint at ${pathOfUrl(url).slice(0, 200)}; see /v1/openapi.json`;
}

/**
 * The HTTP server under Fastify, with what must happen before Fastify sees a request:
 * methods other than GET, HEAD and OPTIONS get 405 with `Allow` (404 on a path no endpoint
 * answers) before any body is read (and the connection is closed, so that an unread body
 * cannot follow as a request), and the connection limits below.
 */
export function createGuardedServer(
  limits: ConnectionLimits,
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  endpoints?: EndpointPaths,
): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      maxHeaderSize: limits.maxHeaderSize,
      // How often the header and request timeouts are checked (Node's default is 30 s).
      connectionsCheckingInterval: 1_000,
    },
    (request, response) => {
      if (!admitPipelined(request.socket, response, limits)) return;
      if (ALLOWED.has(request.method ?? '')) {
        handler(request, response);
        return;
      }
      const queryString = queryStringOfUrl(request.url);
      const format = formatOfQuery(queryString);
      const known = endpoints?.has(request.url ?? '/') ?? true;
      const body = errorText(
        format,
        known
          ? `method ${String(request.method).slice(0, 20)} is not allowed; use GET`
          : noEndpointText(request.url ?? '/'),
        prettyPrintOfQuery(queryString),
      );
      response.shouldKeepAlive = false;
      response.writeHead(known ? 405 : 404, {
        ...(known ? { allow: ALLOWED_METHODS } : {}),
        'content-type': CONTENT_TYPES[format],
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
        ...CORS_HEADERS,
        connection: 'close',
      });
      response.end(body);
    },
  );
  server.setTimeout(limits.socketTimeoutMs, (socket) => socket.destroy());
  limitConnections(server, limits.maxConnections);
  return server;
}

/** Answers of each connection not yet sent. */
const unsent = new WeakMap<Socket, number>();

/**
 * False (and the connection closed) when `socket` already has `maxPipelined` answers unsent or
 * `maxUnreadBytes` of them unread: Node parses every request of a chunk it receives, so a few
 * kilobytes of pipelined requests that are never read would otherwise hold thousands of answers.
 */
function admitPipelined(
  socket: Socket,
  response: ServerResponse,
  limits: ConnectionLimits,
): boolean {
  const pending = unsent.get(socket) ?? 0;
  if (pending >= limits.maxPipelined || socket.writableLength > limits.maxUnreadBytes) {
    socket.destroy();
    return false;
  }
  unsent.set(socket, pending + 1);
  response.once('close', () => unsent.set(socket, (unsent.get(socket) ?? 1) - 1));
  return true;
}

/**
 * At most `max` open connections. When a new one arrives at the limit, the oldest connection
 * that is not in the middle of a request (still sending its headers, or idle between
 * requests) is closed to make room; only when every connection is busy is the new one
 * refused. A flood of connections that never finish their headers thus cannot lock out
 * clients that send theirs promptly.
 */
function limitConnections(server: Server, max: number): void {
  // Insertion order is age order: the first waiting socket is the oldest.
  const waiting = new Set<Socket>();
  let open = 0;
  server.on('connection', (socket: Socket) => {
    if (open >= max) {
      const oldest = waiting.values().next().value;
      if (oldest) {
        waiting.delete(oldest);
        oldest.destroy();
      } else {
        socket.destroy();
        return;
      }
    }
    open++;
    waiting.add(socket);
    socket.once('close', () => {
      open--;
      waiting.delete(socket);
    });
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    waiting.delete(socket);
    response.once('close', () => {
      if (!socket.destroyed) waiting.add(socket);
    });
  });
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

/**
 * Requests the HTTP parser rejects (headers too large, an invalid method, malformed syntax, a
 * request that took too long) are answered with the service's error body, in the format the
 * request line asked for when it can be read.
 */
export function answerClientError(
  error: Error & { code?: string; rawPacket?: unknown },
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  let status = 400;
  let message = `the request is not valid HTTP (${error.code ?? error.message})`;
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    message =
      'the request line and headers are too large (the query endpoint takes SQL of up to 100,000 characters, about 300 KB once percent-encoded)';
  } else if (error.code === 'HPE_INVALID_METHOD') {
    message = 'the request method is not valid HTTP; use GET';
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = 'the request was not received in time';
  }
  const raw = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString('latin1') : '';
  const requestLine = raw.split('\r\n')[0] ?? '';
  const queryString = queryStringOfUrl(requestLine.split(' ')[1]);
  const format = formatOfQuery(queryString);
  const body = errorText(format, message, prettyPrintOfQuery(queryString));
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\n` +
      `content-type: ${CONTENT_TYPES[format]}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      'cache-control: no-store\r\n' +
      Object.entries(CORS_HEADERS)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      'connection: close\r\n\r\n' +
      body,
  );
}
