import type { FastifyInstance } from 'fastify';
import { badRequest, unavailable } from '../errors.js';
import { queryResultText } from '../format/document-writers.js';
import { RawParams, readBoolean, readEnum } from '../params/raw-params.js';
import { SandboxRejection, SandboxTimeout } from '../store/store.js';
import type { ServiceContext } from './context.js';
import { CONTENT_TYPES, queryStringOf, readOnlyEndpoint, sendRepresentation } from './respond.js';
import { errorBody, queryEndpointSchema } from './schemas.js';
import { Semaphore } from './semaphore.js';

/** Runs read-only SQL in the sandbox of CONTRACT §7; show_query prints statements it accepts. */
export function queryRoutes(app: FastifyInstance, context: ServiceContext): void {
  const { timeoutMs, maxRows, maxConcurrent } = context.query;
  const slots = new Semaphore(maxConcurrent);
  readOnlyEndpoint(
    app,
    '/v1/exchangerate/query',
    {
      summary: 'Run a read-only SQL query over the tables observations and sources',
      description: `One SELECT (WITH ... SELECT included); no writes, settings, ATTACH, extensions, files or network. Time limit ${timeoutMs} ms (503 past it), at most ${maxRows} rows (more are cut and reported in X-Error).`,
      querystring: queryEndpointSchema,
      response: {
        400: errorBody('Missing q, invalid SQL, or a statement the sandbox refuses.'),
        503: errorBody('The query ran past the time limit.'),
      },
    },
    async (request, reply) => {
      const params = new RawParams(queryStringOf(request), ['q', 'format', 'pretty_print']);
      const format = readEnum(params, 'format', ['json', 'csv', 'xml'] as const, 'json');
      const prettyPrint = readBoolean(params, 'pretty_print', true);
      const sql = params.get('q');
      if (sql === undefined) throw badRequest('parameter q (the SQL query) is required');
      // The answer depends only on the data version, the day and the URL: a client holding it
      // gets its 304 without the statement running again.
      const run = async (): Promise<string> => {
        const result = await slots.run(async () => {
          try {
            return await context.store.runSandboxed(sql, { timeoutMs, maxRows });
          } catch (error) {
            if (error instanceof SandboxTimeout) throw unavailable(error.message);
            if (error instanceof SandboxRejection) throw badRequest(error.message);
            throw error;
          }
        });
        const problems = [...params.problems];
        if (result.truncated) {
          problems.push(`the result was cut to its first ${maxRows} rows`);
          reply.header('x-error', problems.join('; '));
        }
        const error = problems.length > 0 ? { error: problems.join('; ') } : {};
        return queryResultText(format, { ...result, ...error }, prettyPrint);
      };
      return sendRepresentation(
        request,
        reply,
        {
          contentType: CONTENT_TYPES[format],
          etagParts: [await context.store.dataVersion(), context.today(), request.url],
          settled: false,
          problems: params.problems,
        },
        run,
      );
    },
  );
}
