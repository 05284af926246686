import { VERSION } from '../version.js';

/** How a source's requests behave; tests shorten the delays. */
export interface HttpPolicy {
  /** Whole request, headers and body, in milliseconds. */
  timeoutMs: number;
  /** Further attempts after a 429, a 5xx or a network error. */
  retries: number;
  /** First wait before a retry; doubles each time (a Retry-After header, capped, wins). */
  backoffMs: number;
  /** Least time between two requests of one source, to spare the publisher during backfills. */
  politenessMs: number;
}

export const DEFAULT_HTTP_POLICY: HttpPolicy = {
  timeoutMs: 120_000,
  retries: 3,
  backoffMs: 2_000,
  politenessMs: 500,
};

const MAX_RETRY_AFTER_MS = 120_000;

/** Why a request was given up at its time limit, as the status endpoint shows it. */
const TIMED_OUT = 'no complete response within the time limit';

export const USER_AGENT = `fxrates/${VERSION} (self-hosted exchange-rate service)`;

/** A failed request, with the URL and what went wrong, worded for the status endpoint. */
export class FetchError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** HTTP status of the answer, when there was one. */
    readonly status?: number,
    /** How long the publisher asked us to wait (Retry-After), capped. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface FetchedText {
  url: string;
  text: string;
}

export interface FetchedBytes {
  url: string;
  bytes: Uint8Array;
}

export interface RequestOptions {
  /** Charsets the publisher sends; a response declaring another one is refused. First is the default. */
  charsets?: readonly string[];
  /** A request body, for publishers queried by POST (SOAP services, JSON query APIs). */
  body?: string;
  /** Further request headers, such as the body's Content-Type or a SOAPAction. */
  headers?: Readonly<Record<string, string>>;
}

/**
 * HTTP for one source: the origin override, timeouts, retries with backoff, the User-Agent and
 * a politeness delay. Responses come back as text decoded with the declared charset.
 */
export class SourceHttp {
  private lastRequestAt = 0;
  /** HTTP requests made so far, failed and retried ones included. */
  requests = 0;
  /** Told of each failed request that is going to be retried, with the reason. */
  onRetry?: (message: string) => void;

  constructor(
    readonly sourceKey: string,
    private readonly policy: HttpPolicy = DEFAULT_HTTP_POLICY,
    private readonly originOverride?: string,
    private readonly signal?: AbortSignal,
  ) {}

  /** The URL actually requested: the publisher's, or the override's origin with the same path and query. */
  target(url: string): string {
    if (!this.originOverride) return url;
    return url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, this.originOverride);
  }

  /** GETs `url`, or POSTs `options.body` to it, and returns the decoded body; retried as HttpPolicy says. */
  async requestText(url: string, options: RequestOptions = {}): Promise<FetchedText> {
    const { url: target, bytes, contentType } = await this.request(url, options);
    return { url: target, text: decodeBody(target, bytes, contentType, options.charsets) };
  }

  /** The same for publishers whose data is a file (spreadsheets): the body's bytes, not empty. */
  async requestBytes(url: string, options: RequestOptions = {}): Promise<FetchedBytes> {
    const { url: target, bytes } = await this.request(url, options);
    if (bytes.length === 0) throw new FetchError(`${target}: empty response body`, false);
    return { url: target, bytes };
  }

  private async request(
    url: string,
    options: RequestOptions,
  ): Promise<{ url: string; bytes: Uint8Array; contentType: string | null }> {
    const target = this.target(url);
    let attempt = 0;
    for (;;) {
      await this.waitPoliteness();
      try {
        return { url: target, ...(await this.attempt(target, options)) };
      } catch (error) {
        const failure =
          error instanceof FetchError
            ? error
            : new FetchError(`${target}: ${describeNetworkError(error)}`, true);
        if (!failure.retryable || attempt >= this.policy.retries || this.signal?.aborted) {
          if (attempt > 0) failure.message += ` (after ${attempt + 1} attempts)`;
          throw failure;
        }
        const wait = failure.retryAfterMs ?? this.policy.backoffMs * 2 ** attempt;
        this.onRetry?.(failure.message);
        attempt++;
        await sleep(wait, this.signal);
      }
    }
  }

  private async waitPoliteness(): Promise<void> {
    const wait = this.lastRequestAt + this.policy.politenessMs - Date.now();
    if (wait > 0) await sleep(wait, this.signal);
    this.lastRequestAt = Date.now();
  }

  private async attempt(
    target: string,
    options: RequestOptions,
  ): Promise<{ bytes: Uint8Array; contentType: string | null }> {
    this.requests++;
    const controller = new AbortController();
    const cancel = dueOrAborted(this.policy.timeoutMs, this.signal, (outcome) =>
      controller.abort(
        outcome === 'aborted' ? this.signal?.reason : new DOMException(TIMED_OUT, 'TimeoutError'),
      ),
    );
    try {
      const response = await fetch(target, {
        method: options.body === undefined ? 'GET' : 'POST',
        body: options.body,
        headers: { 'user-agent': USER_AGENT, accept: '*/*', ...options.headers },
        redirect: 'follow',
        signal: controller.signal,
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        const message = `${target}: HTTP ${response.status} ${response.statusText}`.trimEnd();
        const retryable = response.status === 429 || response.status >= 500;
        throw new FetchError(
          message,
          retryable,
          response.status,
          retryAfterMs(response.headers.get('retry-after')),
        );
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { bytes, contentType: response.headers.get('content-type') };
    } finally {
      cancel();
    }
  }
}

/**
 * Text of a response body. The charset comes from Content-Type, else the source's usual one;
 * a charset the source never sends, or bytes that are not valid in it, are refused.
 */
export function decodeBody(
  url: string,
  bytes: Uint8Array,
  contentType: string | null,
  charsets: readonly string[] = ['utf-8'],
): string {
  const declared = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  const expected = charsets.map(normaliseCharset);
  const charset = declared ? normaliseCharset(declared) : expected[0]!;
  if (!expected.includes(charset)) {
    throw new FetchError(
      `${url}: response is in charset ${declared}, expected ${charsets.join(' or ')}`,
      false,
    );
  }
  if (bytes.length === 0) throw new FetchError(`${url}: empty response body`, false);
  try {
    return new TextDecoder(charset, { fatal: true }).decode(bytes);
  } catch {
    throw new FetchError(`${url}: response body is not valid ${charset} text`, false);
  }
}

function normaliseCharset(name: string): string {
  const lower = name.toLowerCase();
  if (lower === 'utf8') return 'utf-8';
  if (lower === 'cp1251') return 'windows-1251';
  return lower;
}

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return TIMED_OUT;
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code) return `${error.message} (${cause.code})`;
    if (cause?.message) return `${error.message} (${cause.message})`;
    return error.message;
  }
  return String(error);
}

/** Waits `ms`, or less when `signal` aborts (the service is shutting down). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => dueOrAborted(ms, signal, () => resolve()));
}

/**
 * Calls `then` once: when `ms` have passed ('due'), or as soon as `signal` aborts ('aborted');
 * the function returned cancels it. The timer is held until then: a timeout signal combined
 * through AbortSignal.any is held only weakly, and once collected it never fires, so a request
 * to a publisher that never answers would wait for ever. The abort is heard through a signal of
 * its own that follows `signal`: every source's requests and waits share the service's one
 * signal, and dozens of listeners on it would make Node warn of a leak.
 */
function dueOrAborted(
  ms: number,
  signal: AbortSignal | undefined,
  then: (outcome: 'due' | 'aborted') => void,
): () => void {
  const own = signal ? AbortSignal.any([signal]) : undefined;
  const cancel = (): void => {
    clearTimeout(timer);
    own?.removeEventListener('abort', aborted);
  };
  const aborted = (): void => {
    cancel();
    then('aborted');
  };
  const timer = setTimeout(() => {
    cancel();
    then('due');
  }, ms);
  if (own?.aborted) aborted();
  else own?.addEventListener('abort', aborted, { once: true });
  return cancel;
}
