import type { FastifyInstance } from 'fastify';
import { badRequest, unavailable } from '../errors.js';
import { queryResultText } from '../format/document-writers.js';
import { GateFull, GateTimeout, QueryGate, UnsentAnswers } from '../http/query-gate.js';
import { RawParams, clip, readBoolean, readEnum } from '../params/raw-params.js';
import { problemsText } from '../params/problems.js';
import { SandboxRejection, SandboxTimeout, SandboxUnavailable } from '../store/store.js';
import { assertReadOnlySelect } from '../store/sql-guard.js';
import type { ServiceContext } from './context.js';
import { CONTENT_TYPES, queryStringOf, readOnlyEndpoint, sendRepresentation } from './respond.js';
import { documentedResponses } from './openapi-responses.js';
import { queryEndpointSchema, querySuccess } from './schemas.js';

/**
 * Runs read-only SQL in the sandbox of CONTRACT §7; show_query prints statements it accepts.
 * Requests queue for the store's sandbox processes (a bounded queue: 503 with Retry-After when
 * it is full); the time limit counts from arrival, and the answer is built while the request
 * still holds its place, so that memory is bounded by the number of places times the byte cap.
 * Answers that slow clients have yet to take count too: at twice that, new queries get 503.
 */
export function queryRoutes(app: FastifyInstance, context: ServiceContext): void {
  const { timeoutMs, maxRows, maxBytes, maxWaiting } = context.query;
  const gate = new QueryGate(context.store.sandboxCapacity, maxWaiting);
  const unsent = new UnsentAnswers(2 * context.store.sandboxCapacity * maxBytes, maxBytes);
  const retryAfter = Math.max(1, Math.ceil(timeoutMs / 1000));
  readOnlyEndpoint(
    app,
    '/v1/exchangerate/query',
    {
      operationId: 'query',
      summary: 'Run a read-only SQL query over the tables observations and sources',
      tags: ['query'],
      description: `One SELECT (WITH ... SELECT included) over the tables observations and sources; no writes, settings, ATTACH, extensions, files or network. Time limit ${timeoutMs} ms from arrival (503 past it), at most ${maxRows} rows and ${maxBytes} bytes of rows (more are cut and reported in X-Error).`,
      querystring: queryEndpointSchema,
      response: documentedResponses(querySuccess, {
        400: 'missing q, q holding a NUL or not percent-encoded UTF-8, invalid SQL, a statement the sandbox refuses, or column names longer than the byte cap',
        503: 'the query ran past the time limit, the queue is full or earlier answers still wait for slow clients (see Retry-After), or the sandbox is restarting',
      }),
    },
    async (request, reply) => {
      const arrival = Date.now();
      const params = new RawParams(queryStringOf(request), ['q', 'format', 'pretty_print']);
      const format = readEnum(params, 'format', ['json', 'csv', 'xml'] as const, 'json');
      const prettyPrint = readBoolean(params, 'pretty_print', true);
      const sql = params.get('q');
      if (sql === undefined) throw badRequest('parameter q (the SQL query) is required');
      // A changed byte would run another statement than the one sent.
      if (params.isMalformed('q')) {
        throw badRequest(
          'parameter q is not percent-encoded UTF-8 (a % not followed by two hex digits, or bytes that are not UTF-8): encode the SQL as UTF-8 and percent-encode it',
        );
      }
      try {
        assertReadOnlySelect(sql);
      } catch (error) {
        if (error instanceof SandboxRejection) throw badRequest(error.message);
        throw error;
      }
      // The answer depends only on the data the sandbox reads, the day and the URL: a client
      // holding it gets its 304 without the statement running again.
      const run = async (): Promise<string> => {
        const deadline = arrival + timeoutMs;
        // What an operator sizes the sandbox by (places, queue, time limit) is logged, once per
        // request; refusals of the SQL itself are the client's and are not.
        const turnedAway = (message: string): void =>
          request.log.info(`query endpoint: 503 for ${clip(request.url, 200)}: ${message}`);
        // Asked on arrival and again on taking a place: the places may all have started together.
        const assertRoom = (): void => {
          if (!unsent.full) return;
          turnedAway('earlier answers wait for slow clients');
          throw unavailable(
            'the answers of earlier queries are still being sent to clients that read them slowly; try again',
            retryAfter,
          );
        };
        assertRoom();
        try {
          return await gate.run(deadline, async () => {
            assertRoom();
            const result = await context.store.runSandboxed(sql, { deadline, maxRows, maxBytes });
            const rendered = await queryResultText(
              format,
              result,
              prettyPrint,
              maxBytes,
              (shown) => {
                const problems = [...params.problems];
                if (result.cut === 'rows' && shown.rowsShown === result.rows.length)
                  problems.push(`the result was cut to its first ${maxRows} rows`);
                else if (result.cut || shown.rowsShown < result.rows.length)
                  problems.push(
                    `the result was cut at ${maxBytes} bytes, after its first ${shown.rowsShown} rows`,
                  );
                if (shown.replacedCharacters)
                  problems.push('characters XML cannot hold were replaced by U+FFFD');
                if (problems.length > params.problems.length)
                  reply.header('x-error', problemsText(problems));
                return problems;
              },
            );
            unsent.hold(Buffer.byteLength(rendered.text), reply.raw);
            return rendered.text;
          });
        } catch (error) {
          if (error instanceof GateFull) {
            turnedAway(error.message);
            throw unavailable(`too many queries at once (${error.message}); try again`, retryAfter);
          }
          if (error instanceof GateTimeout || error instanceof SandboxTimeout) {
            turnedAway(error.message);
            throw unavailable(`${error.message} (${timeoutMs} ms)`);
          }
          if (error instanceof SandboxUnavailable) {
            turnedAway(error.message);
            throw unavailable(error.message, 1);
          }
          if (error instanceof SandboxRejection) throw badRequest(error.message);
          throw error;
        }
      };
      return sendRepresentation(
        request,
        reply,
        {
          contentType: CONTENT_TYPES[format],
          etagParts: [await context.store.sandboxDataVersion(), context.today(), request.url],
          validatedByBody: true,
          settled: false,
          problems: params.problems,
        },
        run,
      );
    },
  );
}
