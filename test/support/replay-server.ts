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

/**
 * Every interaction of a VCR cassette, by path and query. `!binary` bodies are base64; plain
 * string bodies are UTF-8 text, or raw bytes when recorded as ASCII-8BIT.
 */
export function readCassette(file: string): Map<string, RecordedResponse> {
  const document = parse(readFileSync(join(RECORDED, file), 'utf8'), {
    customTags: [
      {
        tag: '!binary',
        resolve: (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'base64'),
      },
    ],
  }) as { http_interactions: any[] };
  const responses = new Map<string, RecordedResponse>();
  for (const interaction of document.http_interactions) {
    const body = interaction.response.body;
    const bytes = Buffer.isBuffer(body.string)
      ? body.string
      : Buffer.from(String(body.string ?? ''), body.encoding === 'ASCII-8BIT' ? 'latin1' : 'utf8');
    const headers: Record<string, string> = {};
    for (const [name, values] of Object.entries(interaction.response.headers ?? {})) {
      if (TRANSFER_HEADERS.has(name.toLowerCase())) continue;
      headers[name.toLowerCase()] = (values as string[]).join(', ');
    }
    responses.set(pathAndQuery(interaction.request.uri), {
      status: interaction.response.status.code,
      headers,
      body: bytes,
    });
  }
  return responses;
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
  private readonly responses = new Map<string, RecordedResponse>();
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
        for (const [target, response] of readCassette(file)) replay.responses.set(target, response);
      } else if (RAW_FILES[file]) {
        replay.responses.set(RAW_FILES[file].path, {
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

  recorded(target: string): RecordedResponse {
    const response = this.responses.get(target);
    if (!response) throw new Error(`no recording for ${target}`);
    return response;
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
    const target = pathAndQuery(request.url ?? '/');
    this.requests.push(target);
    const injected = this.intercept?.(target, request);
    if (injected === 'hang') {
      this.hanging.add(response);
      return;
    }
    const recorded = injected ?? this.responses.get(target);
    if (!recorded) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end(`no recording for ${target}`);
      return;
    }
    response.writeHead(recorded.status, recorded.headers).end(recorded.body);
  }
}
