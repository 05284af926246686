import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { csvText, jsonText } from '../format/document-writers.js';
import { parseCatalogParams } from '../params/catalog-params.js';
import { listCurrencies, listSources } from '../resolve/catalog-lists.js';
import { isKnownSymbol } from '../resolve/rate-request.js';
import type { ServiceContext } from './context.js';
import { CONTENT_TYPES, queryStringOf, readOnlyEndpoint, sendRepresentation } from './respond.js';
import { documentedResponses } from './openapi-responses.js';
import { catalogQuerySchema, currenciesSuccess, sourcesSuccess } from './schemas.js';
import { problemsText } from '../params/problems.js';

const SOURCE_COLUMNS = [
  'source',
  'name',
  'relative_currency',
  'url',
  'is_dst',
  'default_precedence',
  'num_symbols',
  'symbols',
];

/** The currencies and sources lists (CONTRACT §5), at /v1/exchangerate/... and the shorter /v1/... paths. */
export function catalogRoutes(app: FastifyInstance, context: ServiceContext): void {
  for (const prefix of ['/v1/exchangerate', '/v1']) {
    const short = prefix === '/v1';
    readOnlyEndpoint(
      app,
      `${prefix}/currencies`,
      {
        operationId: short ? 'currenciesShortPath' : 'currencies',
        summary: `Currency symbols with their names and sources${short ? ' (shorter path)' : ''}`,
        tags: ['catalog'],
        querystring: catalogQuerySchema,
        response: documentedResponses(currenciesSuccess),
      },
      (request, reply) => sendCatalog(context, request, reply, 'currencies'),
    );
    readOnlyEndpoint(
      app,
      `${prefix}/sources`,
      {
        operationId: short ? 'sourcesShortPath' : 'sources',
        summary: `Sources with the symbols they provide${short ? ' (shorter path)' : ''}`,
        tags: ['catalog'],
        querystring: catalogQuerySchema,
        response: documentedResponses(sourcesSuccess),
      },
      (request, reply) => sendCatalog(context, request, reply, 'sources'),
    );
  }
}

async function sendCatalog(
  context: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  list: 'currencies' | 'sources',
): Promise<FastifyReply> {
  const catalog = await context.store.catalog();
  const params = parseCatalogParams(queryStringOf(request), (symbol) =>
    isKnownSymbol(catalog, symbol),
  );
  const error = params.problems.length > 0 ? { error: problemsText(params.problems) } : {};
  const body = (): string => {
    if (list === 'currencies') {
      const currencies = listCurrencies(catalog, params);
      if (params.format === 'csv')
        return csvText(
          ['symbol', 'sources'],
          currencies.map((c) => [c.symbol, c.sources.join(',')]),
        );
      return jsonText(
        {
          status: 'success',
          ...error,
          num_symbols: currencies.length,
          symbols: Object.fromEntries(
            currencies.map((c) => [c.symbol, { name: c.name, sources: c.sources }]),
          ),
        },
        params.prettyPrint,
      );
    }
    const sources = listSources(catalog, params);
    if (params.format === 'csv') {
      return csvText(
        SOURCE_COLUMNS,
        sources.map((s) => [
          s.key,
          s.name,
          s.relative_currency,
          s.url,
          s.is_dst,
          s.default_precedence,
          s.num_symbols,
          s.symbols.join(','),
        ]),
      );
    }
    return jsonText(
      {
        status: 'success',
        ...error,
        currencies: Object.fromEntries(sources.map(({ key, ...fields }) => [key, fields])),
      },
      params.prettyPrint,
    );
  };
  return sendRepresentation(
    request,
    reply,
    {
      contentType: CONTENT_TYPES[params.format],
      etagParts: [context.store.dataVersion(), request.url],
      settled: false,
      problems: params.problems,
    },
    body,
  );
}
