import type { FastifyInstance } from 'fastify';
import { jsonText } from '../format/document-writers.js';
import { CONTENT_TYPES, readOnlyEndpoint } from './respond.js';

/** The OpenAPI document, generated from the route schemas, and a small index pointing to it. */
export function metaRoutes(app: FastifyInstance, version: string): void {
  readOnlyEndpoint(app, '/v1/openapi.json', { hide: true }, (_request, reply) =>
    reply
      .type(CONTENT_TYPES.json)
      .header('cache-control', 'public, max-age=3600')
      .send(jsonText(app.swagger(), true)),
  );
  readOnlyEndpoint(app, '/', { hide: true }, (_request, reply) =>
    reply
      .type(CONTENT_TYPES.json)
      .header('cache-control', 'public, max-age=3600')
      .send(
        jsonText(
          {
            name: 'fxrates',
            version,
            description: 'Currency exchange rates from official publishers.',
            openapi: '/v1/openapi.json',
            endpoints: {
              latest: '/v1/exchangerate/latest',
              date: '/v1/exchangerate/{YYYY-MM-DD}',
              range: '/v1/exchangerate/{start_date}/{end_date}',
              all: '/v1/exchangerate/all',
              currencies: '/v1/exchangerate/currencies',
              sources: '/v1/exchangerate/sources',
              query: '/v1/exchangerate/query?q={SQL}',
            },
          },
          true,
        ),
      ),
  );
}
