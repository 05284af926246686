/** The page's only way out: the service's public API, on the page's own origin. */

export interface RateEntry {
  /** The rate exactly as the service wrote it. */
  rate: string;
  observation_time: string;
  source: string;
}

export interface ApiAnswer<T> {
  body: T;
  /** Parameter problems the service reported (X-Error). */
  notice: string | null;
}

export class ApiError extends Error {}

type Params = Record<string, string | undefined>;

interface ReviverContext {
  source?: string;
}

/**
 * Keeps every `rate` as the text the service sent, where the browser allows it, so that the
 * page multiplies the published decimal and not its nearest double.
 */
function exactRates(this: unknown, key: string, value: unknown, context?: ReviverContext): unknown {
  if (key === 'rate' && typeof value === 'number') return context?.source ?? String(value);
  return value;
}

export async function getJson<T>(path: string, params: Params = {}): Promise<ApiAnswer<T>> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) query.set(name, value);
  query.set('pretty_print', 'false');
  let response: Response;
  try {
    response = await fetch(`${path}?${query.toString()}`, {
      headers: { accept: 'application/json' },
    });
  } catch {
    throw new ApiError('The service could not be reached. Check the connection and try again.');
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text, exactRates as (key: string, value: unknown) => unknown);
  } catch {
    throw new ApiError(`The service answered ${response.status} with something that is not JSON.`);
  }
  if (!response.ok) {
    const message =
      body && typeof body === 'object' && 'error' in body
        ? String(body.error)
        : response.statusText;
    throw new ApiError(`The service answered ${response.status}: ${message}`);
  }
  return { body: body as T, notice: response.headers.get('x-error') };
}

export interface RatesOfDate {
  date: string;
  base: string;
  rates: Record<string, RateEntry>;
}

export interface RatesOfRange {
  start_date: string;
  end_date: string;
  base: string;
  rates: Record<string, Record<string, RateEntry>>;
}

export interface CurrencyList {
  symbols: Record<string, { sources: string[]; name?: string }>;
}

export interface SourceListing {
  name: string;
  relative_currency: string;
  default_precedence: number;
  num_symbols: number;
}

export interface SourceList {
  currencies: Record<string, SourceListing>;
}

export interface SourceStatus {
  source: string;
  state: string;
  last_attempt: string | null;
  last_success: string | null;
  last_error: string | null;
  observations: number;
  first_date: string | null;
  last_date: string | null;
  next_attempt?: string | null;
}

export interface StatusAnswer {
  ingesting: boolean;
  sources: SourceStatus[];
}
