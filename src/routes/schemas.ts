import { Type, type TObject, type TProperties } from '@sinclair/typebox';
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
  decimals: text('Most digits after the decimal point in a rate.', { default: '16' }),
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
  start_date: Type.String({ description: 'YYYY-MM-DD, or * for the earliest date held' }),
  end_date: Type.String({ description: 'YYYY-MM-DD, or * for today' }),
});

export const rateResponseDescription = {
  200: Type.Object(
    {
      status: Type.Literal('success'),
      date: Type.Optional(
        Type.String({ format: 'date', description: 'latest and date endpoints' }),
      ),
      start_date: Type.Optional(
        Type.String({ format: 'date', description: 'range and all endpoints' }),
      ),
      end_date: Type.Optional(
        Type.String({ format: 'date', description: 'range and all endpoints' }),
      ),
      base: Type.String(),
      error: Type.Optional(
        Type.String({ description: 'Parameter problems, also in the X-Error header.' }),
      ),
      query: Type.Optional(
        Type.String({ description: 'The SQL statement, with show_query=true.' }),
      ),
      rates: Type.Record(Type.String(), Type.Unknown(), {
        description:
          'symbol -> entry (latest, date), or date -> symbol -> entry (range, all). With max_sources_per_symbol > 1 an entry maps source keys to {rate, observation_time}.',
      }),
    },
    { description: 'Rates; csv and xml carry the same entries.' },
  ),
  400: errorBody('A YYYY-MM-DD path segment that is no calendar date.'),
  404: errorBody('No endpoint at this path.'),
};

export function errorBody(description: string) {
  return Type.Object({ status: Type.Literal('error'), error: Type.String() }, { description });
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
            ],
            { description: 'idle: cannot run here (e.g. no API key); pending: never attempted' },
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
