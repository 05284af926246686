import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'yaml';
import { FIXTURES } from './harness.js';

export const RECORDED = join(FIXTURES, 'recorded');

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The raw (non-cassette) recordings and the paths their publishers serve them at. */
const RAW_FILES: Record<string, { path: string; contentType: string }> = {
  'snb_devkum.json': {
    path: '/api/cube/devkum/data/json/de',
    contentType: 'application/json; charset=utf-8',
  },
  'snb_devkua_en.json': {
    path: '/api/cube/devkua/data/json/en',
    contentType: 'application/json; charset=utf-8',
  },
  'floatrates_usd_reindented.json': {
    path: '/daily/usd.json',
    contentType: 'application/json; charset=utf-8',
  },
  'floatrates_eur.json': {
    path: '/daily/eur.json',
    contentType: 'application/json; charset=utf-8',
  },
};

/** The bytes of one recording file as stored (a cassette's YAML, or a raw response). */
export function recordingBytes(file: string): Buffer {
  return readFileSync(join(RECORDED, file));
}

/** Headers that describe the recorded transfer, not the body as the replay sends it. */
const TRANSFER_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'content-encoding',
  'connection',
]);

/** One recorded request and its answer. */
export interface RecordedInteraction {
  /** GET, POST, ... */
  method: string;
  /** Path and query, as `pathAndQuery` makes them. */
  target: string;
  /** The request body ('' for none): SOAP envelopes and JSON queries are told apart by it. */
  requestBody: string;
  response: RecordedResponse;
}

/**
 * Every interaction of a VCR cassette, in recorded order. `!binary` bodies are base64 (bytes
 * that are not UTF-8); plain string bodies are the UTF-8 text of the bytes, whatever encoding
 * the recorder named (it writes bytes labelled ASCII-8BIT as a plain string when they are
 * valid UTF-8, and as !binary otherwise).
 */
export function readCassette(file: string): RecordedInteraction[] {
  const document = parse(readFileSync(join(RECORDED, file), 'utf8'), {
    customTags: [
      {
        tag: '!binary',
        resolve: (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'base64'),
      },
    ],
  }) as { http_interactions: any[] };
  return document.http_interactions.map((interaction): RecordedInteraction => {
    const body = interaction.response.body;
    const bytes = Buffer.isBuffer(body.string)
      ? body.string
      : Buffer.from(String(body.string ?? ''), 'utf8');
    const headers: Record<string, string> = {};
    for (const [name, values] of Object.entries(interaction.response.headers ?? {})) {
      if (TRANSFER_HEADERS.has(name.toLowerCase())) continue;
      headers[name.toLowerCase()] = (values as string[]).join(', ');
    }
    const requestBody = interaction.request.body?.string;
    return {
      method: String(interaction.request.method ?? 'get').toUpperCase(),
      target: pathAndQuery(interaction.request.uri),
      requestBody: Buffer.isBuffer(requestBody)
        ? requestBody.toString()
        : String(requestBody ?? ''),
      response: { status: interaction.response.status.code, headers, body: bytes },
    };
  });
}

/**
 * What a request is matched on: method, path and query exactly, and the body without its white
 * space (a recorded SOAP envelope's line breaks and indents are the recorder's, not the
 * service's; requests differ in dates and codes, not in spaces).
 */
function requestKey(method: string, target: string, body = ''): string {
  return `${method.toUpperCase()} ${target}\n${body.replace(/\s+/g, '')}`;
}

/**
 * The request target as recorded: everything after scheme and authority. FRED's API key was
 * blanked in the recording, so any key matches.
 */
function pathAndQuery(uri: string): string {
  return uri.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/([?&]api_key=)[^&]*/, '$1KEY');
}

export type Intercept = (
  target: string,
  request: IncomingMessage,
) => RecordedResponse | 'hang' | undefined;

/**
 * A loopback HTTP server answering with recorded publisher responses, matched on path and query
 * exactly. Tests can intercept requests to inject faults, and read which targets were requested.
 */
export class ReplayServer {
  readonly requests: string[] = [];
  intercept: Intercept | undefined;
  /** Every answer waits this long first: a slow publisher. */
  delayMs = 0;
  /** Answers by request key, in recorded order; a request repeated more often than recorded gets the last. */
  private readonly responses = new Map<string, { answers: RecordedResponse[]; served: number }>();
  private readonly hanging = new Set<ServerResponse>();
  private server: Server | undefined;
  origin = '';

  /**
   * Answers from the given recording files, or from every cassette and raw recording in the
   * fixtures folder. A publisher's test names its own files, so it cannot lean on another's.
   */
  static async start(files?: readonly string[]): Promise<ReplayServer> {
    const replay = new ReplayServer();
    for (const file of files ?? readdirSync(RECORDED)) {
      if (file.endsWith('.yml')) {
        for (const { method, target, requestBody, response } of readCassette(file)) {
          replay.add(requestKey(method, target, requestBody), response);
        }
      } else if (RAW_FILES[file]) {
        replay.add(requestKey('GET', RAW_FILES[file].path), {
          status: 200,
          headers: { 'content-type': RAW_FILES[file].contentType },
          body: recordingBytes(file),
        });
      } else if (files) {
        throw new Error(`${file}: not a cassette, and no publisher path is known for it`);
      }
    }
    replay.server = createServer((request, response) => replay.answer(request, response));
    await new Promise<void>((resolve) => replay.server!.listen(0, '127.0.0.1', resolve));
    replay.origin = `http://127.0.0.1:${(replay.server.address() as AddressInfo).port}`;
    return replay;
  }

  /** The (first) recorded answer to a request; a GET without a body unless said otherwise. */
  recorded(target: string, request: { method?: string; body?: string } = {}): RecordedResponse {
    const response = this.responses.get(requestKey(request.method ?? 'GET', target, request.body))
      ?.answers[0];
    if (!response) throw new Error(`no recording for ${target}`);
    return response;
  }

  private add(key: string, response: RecordedResponse): void {
    const recorded = this.responses.get(key);
    if (recorded) recorded.answers.push(response);
    else this.responses.set(key, { answers: [response], served: 0 });
  }

  /** FXRATES_ORIGIN_<KEY> for every source, pointing at this server. */
  env(keys: readonly string[], extra: Record<string, string> = {}): Record<string, string> {
    return Object.fromEntries([
      ...keys.map((key) => [`FXRATES_ORIGIN_${key.toUpperCase()}`, this.origin]),
      ...Object.entries(extra),
    ]);
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = () => this.reply(request, Buffer.concat(chunks).toString('utf8'), response);
      if (this.delayMs > 0) setTimeout(reply, this.delayMs);
      else reply();
    });
  }

  private reply(request: IncomingMessage, body: string, response: ServerResponse): void {
    const target = pathAndQuery(request.url ?? '/');
    this.requests.push(target);
    const injected = this.intercept?.(target, request);
    if (injected === 'hang') {
      this.hanging.add(response);
      return;
    }
    const recorded = injected ?? this.next(requestKey(request.method ?? 'GET', target, body));
    if (!recorded) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end(`no recording for ${target}`);
      return;
    }
    response.writeHead(recorded.status, recorded.headers).end(recorded.body);
  }

  private next(key: string): RecordedResponse | undefined {
    const recorded = this.responses.get(key);
    if (!recorded) return undefined;
    return recorded.answers[Math.min(recorded.served++, recorded.answers.length - 1)];
  }
}
