import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { jsonText } from '../format/document-writers.js';
import { documentedResponses } from './openapi-responses.js';
import { CONTENT_TYPES, readOnlyEndpoint, sendRepresentation } from './respond.js';
import { prefersHtml, sendWebPage, type WebPage } from './web.js';

const INDEX = {
  name: 'fxrates',
  description: 'Currency exchange rates from official publishers.',
  openapi: '/v1/openapi.json',
  docs: '/docs',
  endpoints: {
    latest: '/v1/exchangerate/latest',
    date: '/v1/exchangerate/{YYYY-MM-DD}',
    range: '/v1/exchangerate/{start_date}/{end_date}',
    all: '/v1/exchangerate/all',
    currencies: '/v1/exchangerate/currencies',
    sources: '/v1/exchangerate/sources',
    query: '/v1/exchangerate/query?q={SQL}',
    status: '/v1/exchangerate/status',
  },
};

/** The groups of operations in the OpenAPI document. */
export const OPENAPI_TAGS = [
  { name: 'rates', description: 'Exchange rates: latest, one date, a range, all.' },
  { name: 'catalog', description: 'The currencies and the sources that provide them.' },
  { name: 'query', description: 'Read-only SQL over the stored observations.' },
  { name: 'status', description: 'How ingestion of each source is going.' },
  { name: 'meta', description: 'This description of the API.' },
];

/**
 * The OpenAPI document, generated from the route schemas, and a small index pointing to it
 * (the web page instead, for a browser, when it was built).
 */
export function metaRoutes(
  app: FastifyInstance,
  version: string,
  web: WebPage | null = null,
): void {
  // Both change only with the program, so the version names them.
  const representation = { contentType: CONTENT_TYPES.json, settled: false };
  readOnlyEndpoint(
    app,
    '/v1/openapi.json',
    {
      operationId: 'openapi',
      summary: 'This API description',
      description: 'The OpenAPI 3.1 document of this service; /docs renders it for people.',
      tags: ['meta'],
      response: documentedResponses({
        description: 'An OpenAPI 3.1 document.',
        json: Type.Object({}, { additionalProperties: true }),
        reportsProblems: false,
      }),
    },
    (request, reply) =>
      sendRepresentation(
        request,
        reply,
        { ...representation, etagParts: ['openapi', version] },
        () => jsonText(app.swagger(), true),
      ),
  );
  readOnlyEndpoint(app, '/', { hide: true }, (request, reply) =>
    web && prefersHtml(request)
      ? sendWebPage(request, reply, web)
      : sendRepresentation(
          request,
          reply,
          {
            ...representation,
            etagParts: ['index', version],
            extraHeaders: { vary: 'accept, accept-encoding' },
          },
          () => jsonText({ ...INDEX, version }, true),
        ),
  );
}
