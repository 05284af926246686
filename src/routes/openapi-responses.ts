import { Type, type TSchema } from '@sinclair/typebox';

/**
 * The responses of an endpoint as /v1/openapi.json shows them: each format's media type, the
 * headers a client reads (ETag, Cache-Control, X-Error, X-Query), 304 for a current
 * If-None-Match, and the error statuses with the service's error body. Only documentation:
 * bodies are written as text by src/format, never serialised from these schemas.
 */

const MEDIA_TYPES = { json: 'application/json', csv: 'text/csv', xml: 'application/xml' } as const;
type Format = keyof typeof MEDIA_TYPES;

const HEADERS = {
  ETag: Type.String({
    description:
      'Weak validator naming what the answer was computed from (the data version, the day, the URL); send it back in If-None-Match to get 304 while nothing changed.',
  }),
  'Cache-Control': Type.String({ description: 'public, max-age=60' }),
  'X-Error': Type.String({
    description:
      'Parameter problems, when there are any: the answer is for the most likely intended query (also the json key error).',
  }),
  'X-Query': Type.String({
    description:
      'csv with show_query=true: the SQL statement that produced the rates, on one line.',
  }),
} as const;

type HeaderName = keyof typeof HEADERS;

export interface SuccessDocumentation {
  description: string;
  json: TSchema;
  /** What a csv answer holds, when csv is served. */
  csv?: string;
  /** What an xml answer holds, when xml is served. */
  xml?: string;
  /** X-Query, for endpoints that can show their SQL in csv. */
  showsQuery?: boolean;
  /** X-Error, for endpoints that take parameters; true unless said otherwise. */
  reportsProblems?: boolean;
  /** What Cache-Control says, when it is not `public, max-age=60`. */
  cacheControl?: string;
}

/** The Cache-Control of rate answers (src/routes/rates.ts). */
export const RATE_CACHE_CONTROL =
  'public, max-age=86400 when the answer cannot change any more: every date in it is more than 2 days old and every requested source has fetched its history through it; public, max-age=60 otherwise.';

const ERRORS = {
  400: 'The request is malformed',
  404: 'No endpoint at this path',
  431: 'The request line and headers are too large',
  503: 'The service cannot answer now',
} as const;

const UNAVAILABLE =
  'the service is shutting down, its database is out of reach, or (rates) its engine memory is taken by long answers being read';
const RETRY_AFTER = Type.String({
  description: 'Seconds after which the request may succeed, when the service can tell.',
});

/** The responses object of a route schema: 200 in its formats, 304, and the given errors. */
export function documentedResponses(
  success: SuccessDocumentation,
  errors: Partial<Record<keyof typeof ERRORS, string>> = {},
): Record<string, unknown> {
  const headerNames: HeaderName[] = ['ETag', 'Cache-Control'];
  if (success.reportsProblems !== false) headerNames.push('X-Error');
  if (success.showsQuery) headerNames.push('X-Query');
  const headers = pick(headerNames);
  if (success.cacheControl !== undefined)
    headers['Cache-Control'] = Type.String({ description: success.cacheControl });
  const content: Record<string, { schema: TSchema }> = {
    [MEDIA_TYPES.json]: { schema: success.json },
  };
  for (const format of ['csv', 'xml'] as const) {
    const text = success[format];
    if (text !== undefined)
      content[MEDIA_TYPES[format]] = { schema: Type.String({ description: text }) };
  }
  const responses: Record<string, unknown> = {
    200: {
      description: success.description,
      headers,
      content,
    },
    304: {
      description: 'Not Modified: the ETag sent in If-None-Match is current.',
      headers: { ETag: headers.ETag, 'Cache-Control': headers['Cache-Control'] },
      type: 'null',
    },
  };
  const formats: Format[] = ['json', 'csv', 'xml'];
  // Any endpoint can answer 503: while the service shuts down, or its database is out of reach.
  const always = { 431: undefined, 503: UNAVAILABLE };
  for (const [status, detail] of Object.entries({ ...always, ...errors })) {
    const description = `${ERRORS[Number(status) as keyof typeof ERRORS]}${detail ? `: ${detail}` : '.'}`;
    responses[status] = {
      description,
      ...(status === '503' ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
      content: Object.fromEntries(
        formats.map((format) => [MEDIA_TYPES[format], { schema: errorSchema(format) }]),
      ),
    };
  }
  return responses;
}

function pick(names: readonly HeaderName[]): Record<string, TSchema> {
  return Object.fromEntries(names.map((name) => [name, HEADERS[name]]));
}

/** `{status: "error", error}` (CONTRACT §8), in the format the request's `format` names. */
function errorSchema(format: Format): TSchema {
  if (format === 'json')
    return Type.Object({
      status: Type.Literal('error'),
      error: Type.String({ description: 'What went wrong.' }),
    });
  return Type.String({
    description:
      format === 'csv'
        ? 'The columns status,error and one row: error and the message.'
        : 'exchangerates with the elements status (error) and error.',
  });
}
