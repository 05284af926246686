import type { Observation, Store } from './store/store.js';

/** Observations per batch: each is one upsert transaction in the target. */
const BATCH = 50_000;

export interface CopyReport {
  /** Observations read from the source store, per source key. */
  perSource: Map<string, number>;
  /** Rows new or changed in the target (0 when a copy is run again). */
  stored: number;
}

/**
 * Copies every observation and the ingest state of `from` into `to`, in batches of idempotent
 * upserts (a copy that was interrupted is resumed by running it again). It checks that it read
 * as many observations per source as the origin held when it started (observations are never
 * deleted), and that the target holds at least as many, before it copies the ingest state: a
 * target left short never says a publisher's dates are complete. Rates are the stored doubles
 * themselves, so the copy is bit for bit.
 */
export async function copyStore(
  from: Store,
  to: Store,
  progress: (copied: number, stored: number) => void = () => undefined,
): Promise<CopyReport> {
  const perSource = new Map<string, number>();
  let batch: Observation[] = [];
  let copied = 0;
  let stored = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    stored += await to.writeObservations(batch);
    copied += batch.length;
    batch = [];
    progress(copied, stored);
  };
  // Read before the observations: ingestion saves a state after the rows it covers, so this one
  // claims no rows the stream below does not see.
  const states = await from.ingestStates();
  const held = await countsPerSource(from);
  for await (const rows of from.streamRows(
    'SELECT source, symbol, observation_time, rate FROM observations',
  )) {
    for (const [source, symbol, time, rate] of rows) {
      const key = source as string;
      perSource.set(key, (perSource.get(key) ?? 0) + 1);
      batch.push({
        source: key,
        symbol: symbol as string,
        observationTime: new Date(time as string),
        rate: rate as number,
      });
    }
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  const unread = [...held].filter(([source, count]) => (perSource.get(source) ?? 0) < count);
  if (unread.length > 0) {
    throw new Error(
      `verification failed: read ${unread.map(([source, count]) => `${perSource.get(source) ?? 0} of ${source}'s ${count}`).join(', ')} observations from the origin`,
    );
  }
  const target = await countsPerSource(to);
  const short = [...perSource].filter(([source, count]) => (target.get(source) ?? 0) < count);
  if (short.length > 0) {
    throw new Error(
      `verification failed: ${short.map(([source, count]) => `${source} has ${target.get(source) ?? 0} of ${count}`).join(', ')}`,
    );
  }
  for (const state of states.values()) await to.saveIngestState(state);
  return { perSource, stored };
}

async function countsPerSource(store: Store): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for await (const rows of store.streamRows(
    'SELECT source, count(*) AS n FROM observations GROUP BY source',
  )) {
    for (const [source, count] of rows) counts.set(source as string, Number(count));
  }
  return counts;
}
