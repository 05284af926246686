import type { FastifyInstance } from 'fastify';
import { csvText, jsonText } from '../format/document-writers.js';
import { idleReason } from '../sources/publisher.js';
import { SOURCES } from '../sources/registry.js';
import { parseStatusParams } from '../params/status-params.js';
import type { ServiceContext } from './context.js';
import { CONTENT_TYPES, queryStringOf, readOnlyEndpoint, sendRepresentation } from './respond.js';
import { documentedResponses } from './openapi-responses.js';
import { statusQuerySchema, statusResponseDescription } from './schemas.js';
import { problemsText } from '../params/problems.js';
import { replicaName } from '../replica.js';

const COLUMNS = [
  'source',
  'state',
  'last_attempt',
  'last_success',
  'last_error',
  'observations',
  'first_date',
  'last_date',
  'complete_through',
  'last_run_stored',
  'last_run_dropped',
  'next_attempt',
] as const;

type StatusRow = Record<(typeof COLUMNS)[number], string | number | null>;

/**
 * How ingestion of each source is going: `running` (a run is in progress, here or in another
 * replica; the other fields tell how the previous one went), `ok` (last attempt succeeded),
 * `failing` (it did not; `last_error` says why), `idle` (cannot run here, e.g. no API key, or no
 * process will run it), `pending` (never attempted, and a run is to come).
 */
export function statusRoutes(app: FastifyInstance, context: ServiceContext): void {
  readOnlyEndpoint(
    app,
    '/v1/exchangerate/status',
    {
      operationId: 'status',
      summary: 'Ingestion status of every source',
      tags: ['status'],
      querystring: statusQuerySchema,
      response: documentedResponses({
        description: statusResponseDescription[200].description ?? '',
        json: statusResponseDescription[200],
        csv: `Columns ${COLUMNS.join(',')}.`,
        cacheControl: 'no-cache: the state changes with every ingestion run.',
      }),
    },
    async (request, reply) => {
      const params = parseStatusParams(queryStringOf(request));
      const [states, catalog, holder] = await Promise.all([
        context.store.ingestStates(),
        context.store.catalog(),
        context.store.ingestLease.holder().catch(() => null),
      ]);
      const role = context.ingest.role();
      const running = context.ingest.running();
      const rows: StatusRow[] = SOURCES.map((source) => {
        const state = states.get(source.key);
        const holdings = catalog.get(source.key);
        const idle =
          idleReason(source, context.ingest.env) ??
          (state?.lastAttempt || running.has(source.key)
            ? undefined
            : unscheduledReason(source.key, context, role, holder));
        return {
          source: source.key,
          state: idle
            ? 'idle'
            : running.has(source.key)
              ? 'running'
              : !state?.lastAttempt
                ? 'pending'
                : state.lastError
                  ? 'failing'
                  : // A run begun and not ended, by another replica (or a process that died in it).
                    state.lastSuccess === null || state.lastSuccess < state.lastAttempt
                    ? 'running'
                    : 'ok',
          last_attempt: state?.lastAttempt?.toISOString() ?? null,
          last_success: state?.lastSuccess?.toISOString() ?? null,
          last_error: idle ?? state?.lastError ?? null,
          observations: holdings?.observations ?? 0,
          first_date: holdings?.firstDate ?? null,
          last_date: holdings?.lastDate ?? null,
          complete_through: state?.completeThrough ?? null,
          last_run_stored: state?.lastRunStored ?? 0,
          last_run_dropped: state?.lastRunDropped ?? 0,
          next_attempt: context.ingest.nextAttempt(source.key)?.toISOString() ?? null,
        };
      });
      const body =
        params.format === 'csv'
          ? csvText(
              [...COLUMNS],
              rows.map((row) => COLUMNS.map((column) => row[column] ?? '')),
            )
          : jsonText(
              {
                status: 'success',
                ...(params.problems.length > 0 ? { error: problemsText(params.problems) } : {}),
                ingesting: role === 'ingesting',
                role,
                ingest_lease_holder: holder ?? (role === 'ingesting' ? replicaName() : null),
                sources: rows,
              },
              params.prettyPrint,
            );
      return sendRepresentation(
        request,
        reply,
        {
          contentType: CONTENT_TYPES[params.format],
          etagParts: ['status', body],
          settled: false,
          problems: params.problems,
          extraHeaders: { 'cache-control': 'no-cache' },
        },
        () => body,
      );
    },
  );
}

/**
 * Why a source never attempted will not be run either, when that is known: the ingesting
 * process leaves it out (FXRATES_INGEST_SOURCES), or nothing ingests the database now and this
 * process will not (--no-ingest; on PostgreSQL another replica may take the lease later).
 */
function unscheduledReason(
  key: string,
  context: ServiceContext,
  role: 'ingesting' | 'serving',
  holder: string | null,
): string | undefined {
  if (role === 'ingesting') {
    const sources = context.ingest.sources;
    return sources && !sources.includes(key)
      ? 'idle: not among FXRATES_INGEST_SOURCES of the ingesting process'
      : undefined;
  }
  if (!context.ingest.enabled && holder === null)
    return 'idle: no process ingests this database now (this one runs with --no-ingest)';
  return undefined;
}
