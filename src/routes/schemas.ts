import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { RATE_CACHE_CONTROL } from './openapi-responses.js';
import { AGGREGATIONS } from '../resolve/rate-query.js';
import { ALL_ENDPOINT_SOURCE_ORDER, DEFAULT_SOURCE_ORDER } from '../sources/registry.js';

/**
 * Route schemas document the API in /v1/openapi.json. They do not reject requests: the
 * service answers bad parameters with data for the most likely intended query and an X-Error
 * header (CONTRACT §8), which src/params implements; so app.ts turns Fastify's validation off.
 */

const text = (description: string, extra: object = {}) =>
  Type.Optional(Type.String({ description, ...extra }));

const commonRateQuery: TProperties = {
  base: text('Base currency: any symbol of the currencies endpoint.', { default: 'USD' }),
  symbols: text('Comma-separated symbols to include, or * for all.', { default: '*' }),
  sources: text(
    `Comma-separated source keys, in priority order, or * for every source by default_precedence. Default for latest, date and range: ${DEFAULT_SOURCE_ORDER.join(',')}; for all: ${ALL_ENDPOINT_SOURCE_ORDER.join(',')}.`,
  ),
  format: text('Output format.', { enum: ['json', 'csv', 'xml'], default: 'json' }),
  up_to_days_before: text('Days before the requested date an observation still counts (1-36525).', {
    default: '4',
  }),
  max_sources_per_symbol: text(
    'Most sources returned per symbol; above 1 each symbol maps source keys to entries.',
    { default: '1' },
  ),
  observation_time_selection: text(
    'Which observation of a day counts: latest (default on latest) or earliest (default elsewhere).',
    {
      enum: ['latest', 'earliest'],
    },
  ),
  decimals: text('Most digits after the decimal point in a rate (1-100).', { default: '16' }),
  amount: text(
    'Amount of the base currency to convert: every rate is multiplied by it before rounding to decimals. A positive decimal number of at most 30 digits.',
    { default: '1' },
  ),
  pretty_print: text('Indent json and xml output.', { enum: ['true', 'false'], default: 'true' }),
  show_query: text(
    'Add the SQL statement that produced the rates (json key query, xml element query, csv header X-Query).',
    {
      enum: ['true', 'false'],
      default: 'false',
    },
  ),
};

export function rateQuerySchema(ranged: boolean): TObject {
  return Type.Object(
    ranged
      ? {
          ...commonRateQuery,
          aggregation: text(
            'Group the dates by a unit of time; each group shows its first (earliest) or last (latest) entry per symbol.',
            {
              enum: [...AGGREGATIONS],
              default: 'day',
            },
          ),
        }
      : commonRateQuery,
  );
}

export const catalogQuerySchema = Type.Object({
  symbols: text('Comma-separated symbols to include, or *.', { default: '*' }),
  sources: text('Comma-separated source keys, in priority order.'),
  format: text('Output format.', { enum: ['json', 'csv'], default: 'json' }),
  pretty_print: text('Indent json output.', { enum: ['true', 'false'], default: 'true' }),
});

export const statusQuerySchema = Type.Object({
  format: text('Output format.', { enum: ['json', 'csv'], default: 'json' }),
  pretty_print: text('Indent json output.', { enum: ['true', 'false'], default: 'true' }),
});

export const queryEndpointSchema = Type.Object({
  q: Type.String({
    description:
      'One read-only SELECT over the tables observations and sources, at most 100,000 characters.',
  }),
  format: text('Output format.', { enum: ['json', 'csv', 'xml'], default: 'json' }),
  pretty_print: text('Indent json and xml output.', { enum: ['true', 'false'], default: 'true' }),
});

export const dateParams = Type.Object({
  date: Type.String({ description: 'YYYY-MM-DD', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
});

export const rangeParams = Type.Object({
  start_date: Type.String({
    description: 'YYYY-MM-DD, or * for the earliest date held',
    pattern: '^(\\d{4}-\\d{2}-\\d{2}|\\*)$',
  }),
  end_date: Type.String({
    description: 'YYYY-MM-DD, or * for today',
    pattern: '^(\\d{4}-\\d{2}-\\d{2}|\\*)$',
  }),
});

const rateValue = Type.Number({
  description:
    'Units of the symbol that 1 unit of the base buys (times amount), rounded half away from zero to decimals.',
});
const observationTime = Type.String({
  format: 'date-time',
  description: 'When the rate was observed (the later of the two legs of a cross rate), UTC.',
});

const mapOf = (value: TSchema, description: string) =>
  Type.Object({}, { additionalProperties: value, description });

/** One symbol's entry: its rate and source, or with max_sources_per_symbol > 1, one per source. */
const symbolEntry = Type.Union([
  Type.Object(
    {
      rate: rateValue,
      observation_time: observationTime,
      source: Type.String({ description: 'Key of the source that gave the rate.' }),
    },
    { title: 'Rate entry' },
  ),
  mapOf(
    Type.Object({ rate: rateValue, observation_time: observationTime }),
    'With max_sources_per_symbol > 1: source key -> entry, in priority order.',
  ),
]);

const ratesOfDate = mapOf(symbolEntry, 'Symbol -> entry, A-Z.');

const RATE_CSV =
  'Columns date,base,symbol,source,rate,observation_time; one row per entry, newest date first, then symbol A-Z, then source priority.';
const RATE_XML =
  'exchangerates with the head elements (status, date or start_date and end_date, base, error, query), then rates with one rate element per entry (attributes date, symbol, source, observation_time; the rate as text), in csv order.';

/** The 200 answer of a rate endpoint; `ranged` for range and all, which nest symbols under dates. */
export function rateSuccess(ranged: boolean) {
  const dates: TProperties = ranged
    ? {
        start_date: Type.String({ format: 'date' }),
        end_date: Type.String({ format: 'date' }),
      }
    : { date: Type.String({ format: 'date' }) };
  return {
    description: 'Rates; csv and xml carry the same entries.',
    json: Type.Object({
      status: Type.Literal('success'),
      ...dates,
      base: Type.String(),
      error: Type.Optional(
        Type.String({ description: 'Parameter problems, also in the X-Error header.' }),
      ),
      query: Type.Optional(
        Type.String({ description: 'The SQL statement, with show_query=true.' }),
      ),
      rates: ranged
        ? mapOf(
            ratesOfDate,
            'Date -> symbol -> entry: the start date and every later date on which a requested source published, newest first.',
          )
        : ratesOfDate,
    }),
    csv: RATE_CSV,
    xml: RATE_XML,
    showsQuery: true,
    cacheControl: RATE_CACHE_CONTROL,
  };
}

const nullableText = (description: string) =>
  Type.Union([Type.String(), Type.Null()], { description });

export const statusResponseDescription = {
  200: Type.Object(
    {
      status: Type.Literal('success'),
      error: Type.Optional(Type.String({ description: 'Parameter problems, also in X-Error.' })),
      ingesting: Type.Boolean({ description: 'Whether this process runs the ingestion schedule.' }),
      role: Type.Union([Type.Literal('ingesting'), Type.Literal('serving')], {
        description:
          'This replica: `ingesting` while it holds the ingest lease (exactly one replica of a shared database does), `serving` otherwise.',
      }),
      ingest_lease_holder: Type.Union([Type.String(), Type.Null()], {
        description: 'The replica (host:pid) that ingests now, or null when none does.',
      }),
      sources: Type.Array(
        Type.Object({
          source: Type.String(),
          state: Type.Union(
            [
              Type.Literal('ok'),
              Type.Literal('failing'),
              Type.Literal('idle'),
              Type.Literal('pending'),
              Type.Literal('running'),
            ],
            {
              description:
                'idle: cannot run here (no API key) or will not be run (left out of FXRATES_INGEST_SOURCES, or nothing ingests), last_error says which; pending: never attempted, a run is to come; running: a run is in progress',
            },
          ),
          last_attempt: nullableText('Start of the last attempt, ISO 8601 UTC.'),
          last_success: nullableText('End of the last successful attempt, ISO 8601 UTC.'),
          last_error: nullableText(
            'Why the last attempt failed (with the URL), or why the source is idle.',
          ),
          observations: Type.Integer({ description: 'Observations stored.' }),
          first_date: nullableText('UTC date of the first stored observation.'),
          last_date: nullableText('UTC date of the last stored observation.'),
          complete_through: nullableText(
            'Every request of a run succeeded through this date; the next run resumes here at the latest.',
          ),
          last_run_stored: Type.Integer({
            description: 'Observations the last attempt added or changed.',
          }),
          last_run_dropped: Type.Integer({
            description:
              'Values or codes the last attempt refused (not positive numbers, not currencies).',
          }),
          next_attempt: nullableText(
            'When this replica runs the source next, ISO 8601 UTC; null while it runs or waits for a run slot, and on a replica that does not ingest.',
          ),
        }),
      ),
    },
    { description: 'One entry per source in default priority order; csv has the same columns.' },
  ),
};

const parameterProblems = Type.Optional(
  Type.String({ description: 'Parameter problems, also in the X-Error header.' }),
);

export const currenciesSuccess = {
  description: 'Every symbol of the included sources, A-Z.',
  json: Type.Object({
    status: Type.Literal('success'),
    error: parameterProblems,
    num_symbols: Type.Integer(),
    symbols: mapOf(
      Type.Object({
        name: Type.String({ description: 'English name, e.g. West African CFA Franc.' }),
        sources: Type.Array(Type.String(), {
          description: 'Keys of the sources that provide the symbol, in requested order.',
        }),
      }),
      'Symbol -> its name and sources.',
    ),
  }),
  csv: 'Columns symbol,sources (sources comma-separated in one field).',
};

export const sourcesSuccess = {
  description: 'Each included source in requested order; one left with no symbols is omitted.',
  json: Type.Object({
    status: Type.Literal('success'),
    error: parameterProblems,
    currencies: mapOf(
      Type.Object({
        name: Type.String(),
        relative_currency: Type.String({ description: 'The currency the source quotes against.' }),
        url: Type.String({ format: 'uri' }),
        is_dst: Type.Boolean(),
        default_precedence: Type.Integer({
          description: 'Position in the default priority order, from 0.',
        }),
        num_symbols: Type.Integer(),
        symbols: Type.Array(Type.String()),
      }),
      'Source key -> source (the key is named currencies although it holds sources).',
    ),
  }),
  csv: 'Columns source,name,relative_currency,url,is_dst,default_precedence,num_symbols,symbols.',
};

const sqlValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

export const querySuccess = {
  description:
    'The rows of the statement; rows beyond the limits are cut and the cut is reported in X-Error.',
  json: Type.Object({
    status: Type.Literal('success'),
    error: parameterProblems,
    num_rows: Type.Integer(),
    columns: Type.Array(Type.String()),
    rows: Type.Array(mapOf(sqlValue, 'Column -> value.')),
  }),
  csv: 'The columns of the statement, then one line per row.',
  xml: 'exchangerates with status, error, num_rows, columns (column elements) and rows (row elements of value elements with a column attribute; null="true" for NULL).',
};
