import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { writeRates } from '../format/rate-writers.js';
import { answersCompressed, collectText } from '../http/response-cache.js';
import { HistoryCoverage } from '../resolve/history-coverage.js';
import type { RateBatch } from '../resolve/rate-query.js';
import {
  isSettled,
  planRateRequest,
  type RatePath,
  type RatePlan,
} from '../resolve/rate-request.js';
import { ROWS_PER_WINDOW } from '../resolve/range-windows.js';
import { ClientGone, unavailable } from '../errors.js';
import { EngineOutOfMemory, type Catalog, type ColumnBatch, type Store } from '../store/store.js';
import { everyDayStepped } from '../store/catalog.js';
import type { ServiceContext } from './context.js';
import { Turns } from '../turns.js';
import { etagMatches } from '../http/caching.js';
import { CONTENT_TYPES, queryStringOf, readOnlyEndpoint, sendRepresentation } from './respond.js';
import { documentedResponses } from './openapi-responses.js';
import { dateParams, rangeParams, rateQuerySchema, rateSuccess } from './schemas.js';

export function rateRoutes(app: FastifyInstance, context: ServiceContext): void {
  const coverage = new HistoryCoverage(() => context.store.ingestStates());
  const answer =
    (path: (request: FastifyRequest) => RatePath) =>
    (request: FastifyRequest, reply: FastifyReply) =>
      sendRates(context, coverage, request, reply, path(request));

  readOnlyEndpoint(
    app,
    '/v1/exchangerate/latest',
    {
      operationId: 'latestRates',
      summary: 'Latest rates',
      description: 'The rates of today (UTC), each the most recent within up_to_days_before.',
      tags: ['rates'],
      querystring: rateQuerySchema(false),
      response: documentedResponses(rateSuccess(false)),
    },
    answer(() => ({ endpoint: 'latest' })),
  );
  readOnlyEndpoint(
    app,
    '/v1/exchangerate/all',
    {
      operationId: 'allRates',
      summary: 'All rates ever held',
      description: 'Every date from the earliest held to today; the same as /v1/exchangerate/*/*.',
      tags: ['rates'],
      querystring: rateQuerySchema(true),
      response: documentedResponses(rateSuccess(true)),
    },
    answer(() => ({ endpoint: 'all' })),
  );
  readOnlyEndpoint(
    app,
    '/v1/exchangerate/:date',
    {
      operationId: 'ratesOfDate',
      summary: 'Rates of one date',
      tags: ['rates'],
      params: dateParams,
      querystring: rateQuerySchema(false),
      response: documentedResponses(rateSuccess(false), {
        400: 'a YYYY-MM-DD segment that is no calendar date (2023-02-29)',
        404: 'a segment that is not a date',
      }),
    },
    answer((request) => ({ endpoint: 'date', date: (request.params as { date: string }).date })),
  );
  readOnlyEndpoint(
    app,
    '/v1/exchangerate/:start_date/:end_date',
    {
      operationId: 'ratesOfRange',
      summary: 'Rates over a range of dates',
      description:
        'The start date and every later date on which a requested source published, newest first; swapped dates are put in order.',
      tags: ['rates'],
      params: rangeParams,
      querystring: rateQuerySchema(true),
      response: documentedResponses(rateSuccess(true), {
        400: 'a YYYY-MM-DD segment that is no calendar date (2023-02-29)',
        404: 'a segment that is neither a date nor *',
      }),
    },
    answer((request) => {
      const params = request.params as { start_date: string; end_date: string };
      return { endpoint: 'range', start: params.start_date, end: params.end_date };
    }),
  );
}

async function sendRates(
  context: ServiceContext,
  coverage: HistoryCoverage,
  request: FastifyRequest,
  reply: FastifyReply,
  path: RatePath,
): Promise<FastifyReply> {
  const { store, answers } = context;
  const today = context.today();
  const version = store.dataVersion();
  const generation = `${version}|${today}`;
  const queryString = queryStringOf(request);
  const catalog = await store.catalog();
  let rowsPerWindow = context.rowsPerWindow;
  const planOf = (on: Catalog = catalog): RatePlan =>
    planRateRequest(
      path,
      queryString,
      on,
      store.dialect,
      today,
      rowsPerWindow,
      context.manyPairsFrom,
    );
  let plan = planOf();
  const { format } = plan.params;
  const { cacheKey } = plan;
  // One date's answer is small: it is rendered once and kept with its headers (the same URL
  // asked again is answered before it reaches here). Ranges are streamed every time.
  const stored = cacheKey === undefined ? undefined : answers.get(cacheKey);
  if (stored !== undefined && !stored.revalidate) {
    answers.noteUrl(request.url, cacheKey!);
    reply.headers(stored.headers);
    if (etagMatches(request.headers['if-none-match'], stored.etag)) return reply.code(304).send();
    return reply.send(stored.body);
  }
  const crowded = rangeAnswers >= CROWDED;
  const gone = plan.ranged ? trackRangeAnswer(reply.raw) : undefined;
  // A HEAD answer of a range sends no rows: it reads none (see sendRepresentation).
  const whole =
    plan.readWhole &&
    (!plan.ranged || (request.method !== 'HEAD' && holdWhole(reply.raw, plan.mostRows)));
  // Crowded, a compressed answer that is streamed is cut into smaller windows (see CROWDED).
  if (
    plan.ranged &&
    !whole &&
    context.rowsPerWindow === undefined &&
    crowded &&
    answersCompressed(request.headers)
  ) {
    rowsPerWindow = ROWS_PER_WINDOW / CROWDED_WINDOW_DIVISOR;
    plan = planOf();
  }
  // A statement that reads a source as observing once a day is replaced, once it has started,
  // by the same window's statement with a step per day when a write gave such a source a second
  // observation of a day meanwhile (it could then read two legs of one day).
  let stepped: RatePlan | undefined;
  const replacement: Replacement | undefined = plan.assumesOneObservationPerDay
    ? (index) =>
        store.sharedDaysSince(catalog)
          ? (stepped ??= planOf(everyDayStepped(catalog))).statements[index]
          : undefined
    : undefined;
  const waits = memoryWaits(context);
  // An answer read whole is read before its head is sent, so that a statement that fails (no
  // memory for it within the wait, the database away) is an error status, not a cut answer.
  const body = async (): Promise<AsyncIterable<string>> =>
    writeRates(
      format,
      plan.head,
      whole
        ? await wholeRows(store, plan.statements[0]!, plan.ranged, waits, gone, replacement)
        : windowRows(
            store,
            plan.statements,
            plan.params.aggregation !== 'day' ? AGGREGATED_WINDOWS_AHEAD : WINDOWS_AHEAD,
            waits.range,
            gone,
            replacement,
          ),
      plan.writer,
    );
  // A day of caching only for answers that cannot change any more: every date is past the
  // publishers' corrections (SPEC.md rule 4) and every requested source has fetched its history
  // through them. During a first backfill, or when the sources hold nothing yet, a minute.
  const oldEnough = isSettled(plan.newestDate, today);
  const settled =
    oldEnough &&
    holdsAny(catalog, plan.params.sources) &&
    (await coverage.covers(
      plan.params.sources,
      plan.newestDate,
      version,
      context.ingest.running(),
    ));
  // A cached answer's ETag names the parsed request, so that every spelling of it shares one.
  const etagParts = [version, today, cacheKey ?? request.url];
  return sendRepresentation(
    request,
    reply,
    {
      contentType: CONTENT_TYPES[format],
      etagParts,
      settled,
      problems: plan.params.problems,
      extraHeaders:
        format === 'csv' && plan.params.showQuery
          ? { 'x-query': plan.sql.replace(/\s+/g, ' ') }
          : {},
    },
    cacheKey === undefined
      ? body
      : async () => {
          const text = stored?.body ?? Buffer.from(await collectText(await body()));
          answers.set(cacheKey, request.url, generation, {
            headers: reply.getHeaders(),
            etag: String(reply.getHeader('etag')),
            body: text,
            // Its Cache-Control can still become a day's as ingestion fetches the history.
            revalidate: oldEnough && !settled,
          });
          return text;
        },
  );
}

/**
 * The rows of an answer read whole (plan.readWhole): one statement, read at once. A range takes
 * its turn among the range statements, as a streamed one does. When the engine has no memory
 * for it within the wait, 503.
 */
async function wholeRows(
  store: Store,
  sql: string,
  ranged: boolean,
  waits: MemoryWaits,
  signal: AbortSignal | undefined,
  replacement: Replacement | undefined,
): Promise<AsyncIterable<RateBatch>> {
  const readWhole = (statement: string): Promise<ColumnBatch[]> => {
    const read = (): Promise<ColumnBatch[]> => store.readColumns(statement);
    return whenMemoryAllows(
      ranged ? () => computing.run(read, signal) : read,
      ranged ? waits.range : waits.oneDate,
      signal,
    );
  };
  let batches: ColumnBatch[];
  try {
    batches = await readWhole(sql);
    const instead = replacement?.(0);
    if (instead !== undefined) batches = await readWhole(instead);
  } catch (error) {
    if (error instanceof EngineOutOfMemory) {
      throw unavailable(
        "the engine's memory is taken by long answers being read; try again shortly",
        5,
      );
    }
    throw error;
  }
  // Each batch leaves the list as it is handed on. With the list holding them all, the rows of
  // answers already sent survived young collections and were moved to the old generation: in
  // a loop of one-year ranges, each young collection kept 1.07 MB (0.22 MB now), and they took
  // 0.9 ms of each answer (0.36 ms now).
  return (async function* () {
    for (let batch = batches.shift(); batch; batch = batches.shift()) yield rateBatchOf(batch);
  })();
}

/**
 * Counts a range answer in `rangeAnswers` until its response closes. The signal aborts when the
 * client goes away before the answer is sent: its windows still waiting for their turn are then
 * not computed for nobody. (A one-date answer is one statement: nothing to spare.)
 */
function trackRangeAnswer(response: ServerResponse): AbortSignal {
  const gone = new AbortController();
  rangeAnswers++;
  response.once('close', () => {
    rangeAnswers--;
    if (!response.writableFinished) gone.abort(new ClientGone());
  });
  return gone.signal;
}

/**
 * Whether a range answer of at most `rows` rows may be read whole: it is then held in this
 * process until its client has read it, so the rows held so (as estimated) stay below
 * WHOLE_ROWS_HELD; past it, an answer is streamed, and the engine holds it within its memory
 * limit. The rows are counted until the response closes.
 */
function holdWhole(response: ServerResponse, rows: number): boolean {
  if (wholeRowsHeld + rows > WHOLE_ROWS_HELD) return false;
  wholeRowsHeld += rows;
  response.once('close', () => (wholeRowsHeld -= rows));
  return true;
}

/**
 * Rows of range answers read whole and not yet sent, at most, as estimated: thirteen one-year
 * ranges of every ECB currency (about 0.9 MB each in this process as read).
 */
const WHOLE_ROWS_HELD = 200_000;
let wholeRowsHeld = 0;

/**
 * Range answers in flight in this process, from their planning to the close of their response.
 * With more than READ_AHEAD_UP_TO, the engine is busy with their windows anyway: no window is
 * then started ahead, and the engine holds one window for each.
 */
let rangeAnswers = 0;
const READ_AHEAD_UP_TO = 2;
/**
 * From this many range answers at once, the next long ones that go compressed are cut into windows
 * a quarter the size. Each answer holds the window being written in the engine until its client
 * has read it, and a compressed answer is in flight about twice as long: 32 `/all` with gzip
 * at once held about 600 MB, about 290 MB with these windows, in the same time. An answer read
 * uncompressed keeps the larger windows: with four times the statements, 32 of them took 30%
 * longer. The answer is the same either way. An answer read whole (see holdWhole) holds no
 * window in the engine: it keeps its one statement; a short one streamed because this process
 * holds enough answers already is cut as the long ones.
 */
const CROWDED = 4;
const CROWDED_WINDOW_DIVISOR = 4;

/**
 * Windows computed ahead of the one being written. Each statement runs on a thread of its own, so
 * with two ahead the engine computes on two while this process writes: where the engine is the
 * slower side (several sources, whose priorities it ranks), a full history streams about a fifth
 * faster than with one ahead.
 */
const WINDOWS_AHEAD = 2;
/**
 * An aggregated answer's windows hold many more days in the engine than they give rows: one
 * ahead keeps what the engine holds for it at two windows' worth.
 */
const AGGREGATED_WINDOWS_AHEAD = 1;

/**
 * Range statements computing at once (until their first rows): the engine's working memory for
 * many long answers at once stays that of a few; each then holds only its sorted rows.
 */
const computing = new Turns(2);

/**
 * The rows of a streamed answer: those of each statement in turn (a long range's windows, newest
 * first). The statements of the next windows (WINDOWS_AHEAD of them, or AGGREGATED_WINDOWS_AHEAD)
 * start with the first, and each next one as soon as a window is written, so that the engine
 * computes them (holding their results within its own memory limit) while this process writes
 * the rows before them; this process holds one batch at a time.
 */
async function* windowRows(
  store: Store,
  statements: readonly string[],
  windowsAhead: number,
  memoryWaitMs: number,
  signal: AbortSignal | undefined,
  replacement: Replacement | undefined,
): AsyncIterable<RateBatch> {
  // Ends what is still waiting (for a turn, for memory) when the answer ends, however it ends.
  const ended = new AbortController();
  const stop = signal ? AbortSignal.any([signal, ended.signal]) : ended.signal;
  const runOne = async (sql: string): Promise<RanWindow> => {
    const rows = store.streamColumns(sql)[Symbol.asyncIterator]();
    return { rows, batch: await computing.run(() => rows.next(), stop) };
  };
  const run = async (sql: string, index: number): Promise<RanWindow> => {
    const ran = await runOne(sql);
    const instead = replacement?.(index);
    if (instead === undefined) return ran;
    await ran.rows.return?.();
    return runOne(instead);
  };
  // The window being written waits for memory when the engine has none left; a window started
  // ahead tries once, and when it failed for memory, it waits in its turn once it is the one
  // being written (waiting ahead would hold a turn, and memory, for rows not wanted yet).
  const start = (index: number, current: boolean): StartedRows => {
    const sql = statements[index]!;
    const first = current
      ? whenMemoryAllows(() => run(sql, index), memoryWaitMs, stop)
      : run(sql, index);
    // A client that goes away stops the answer: a window started ahead then fails unheard.
    first.catch(() => undefined);
    return { index, first, waits: current };
  };
  // Windows started and not yet written, in order; the first is the one being written.
  const started: StartedRows[] = [];
  let nextIndex = 0;
  const startUpTo = (count: number): void => {
    while (started.length < count && nextIndex < statements.length)
      started.push(start(nextIndex++, started.length === 0));
  };
  try {
    const windowsWanted = (): number => 1 + (rangeAnswers <= READ_AHEAD_UP_TO ? windowsAhead : 0);
    // The first windows start together: waiting for the first one's rows before starting the
    // next left a processor idle meanwhile (PostgreSQL computes each statement on one).
    startUpTo(windowsWanted());
    while (started.length > 0) {
      const current = await started[0]!.first.catch((error: unknown) => {
        if (started[0]!.waits || !(error instanceof EngineOutOfMemory)) throw error;
        started[0] = start(started[0]!.index, true);
        return started[0].first;
      });
      startUpTo(windowsWanted());
      for (let batch = current.batch; !batch.done; batch = await current.rows.next())
        yield rateBatchOf(batch.value);
      started.shift();
      startUpTo(1);
    }
  } finally {
    ended.abort(new Error('the answer ended'));
    // Stopped early (or failed): the statements still open give their connections back.
    for (const open of started) {
      await open.first.then(
        ({ rows }) => rows.return?.(),
        () => undefined,
      );
    }
  }
}

/**
 * The statement to run instead of statement `index` of a plan, asked once that one has started:
 * undefined while the plan still holds.
 */
type Replacement = (index: number) => string | undefined;

/** A window's statement once it has run: its rows, the first batch read. */
interface RanWindow {
  rows: AsyncIterator<ColumnBatch>;
  batch: IteratorResult<ColumnBatch>;
}

interface StartedRows {
  /** Which of the statements. */
  index: number;
  first: Promise<RanWindow>;
  /** Whether it waits for memory (the window being written), or tries once (one ahead). */
  waits: boolean;
}

/**
 * How long a window's statement waits, in all, for the engine's memory. Many long answers read
 * slowly (or compressed) at once each hold a window's rows in the engine until their clients
 * have read them; past the engine's memory limit, the next statement fails. It returned
 * nothing, so it runs again as those answers give memory back, instead of cutting its answer
 * short. A one-date statement, whose client is not watched, waits less, then gets 503.
 */
const MEMORY_WAIT_MS = 30_000;
const ONE_DATE_MEMORY_WAIT_MS = 5_000;

/** How long a range's statement, and a one-date statement, wait for memory, in ms. */
interface MemoryWaits {
  range: number;
  oneDate: number;
}

function memoryWaits(context: ServiceContext): MemoryWaits {
  const wait = context.memoryWaitMs;
  return wait === undefined
    ? { range: MEMORY_WAIT_MS, oneDate: ONE_DATE_MEMORY_WAIT_MS }
    : { range: wait, oneDate: Math.min(wait, ONE_DATE_MEMORY_WAIT_MS) };
}

/** Statements waiting for memory take turns, in order of arrival: the longest waiting runs first. */
const memoryQueue = new Turns(1);

/**
 * Runs `attempt` (at once unless statements already wait for memory), and after an
 * EngineOutOfMemory again, in its turn: in 50 ms, then twice as long each time (at most 1 s),
 * for at most `waitMs` in all.
 */
async function whenMemoryAllows<T>(
  attempt: () => Promise<T>,
  waitMs: number,
  signal?: AbortSignal,
): Promise<T> {
  let failure: EngineOutOfMemory | undefined;
  if (!memoryQueue.busy) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof EngineOutOfMemory)) throw error;
      failure = error;
    }
  }
  const since = Date.now();
  const deadline = AbortSignal.timeout(waitMs);
  try {
    await memoryQueue.take(signal ? AbortSignal.any([signal, deadline]) : deadline);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw deadline.aborted ? (failure ?? new EngineOutOfMemory('no memory came back')) : error;
  }
  try {
    // A statement that waited in the queue tries at once; one that failed waits first.
    for (let wait = failure ? 50 : 0; Date.now() - since + wait <= waitMs;) {
      if (wait > 0) await sleep(wait, undefined, { signal }).catch(() => signal?.throwIfAborted());
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof EngineOutOfMemory)) throw error;
        failure = error;
      }
      wait = Math.min(Math.max(2 * wait, 50), 1_000);
    }
    throw failure ?? new EngineOutOfMemory('no memory came back');
  } finally {
    memoryQueue.give();
  }
}

/** The statement's columns as a rate batch: date, symbol, source, symbol_rate, base_rate, observation_time (rates-sql.ts). */
function rateBatchOf(batch: ColumnBatch): RateBatch {
  return batch as unknown as RateBatch;
}

/** Whether any of the sources holds an observation: an answer from none is not settled. */
function holdsAny(catalog: Catalog, sources: readonly string[]): boolean {
  return sources.some((key) => (catalog.get(key)?.observations ?? 0) > 0);
}
