import type { SourceAdapter } from './adapter.js';
import { bcbAdapter } from './bcb.js';
import { bnroAdapter } from './bnro.js';
import { bocAdapter } from './boc.js';
import { boeAdapter } from './boe.js';
import { boiAdapter } from './boi.js';
import { cbnAdapter } from './cbn.js';
import { cbrAdapter } from './cbr.js';
import { cnbAdapter } from './cnb.js';
import { ecbAdapter } from './ecb.js';
import { floatRatesAdapter } from './float-rates.js';
import { fredAdapter } from './fred.js';
import { imfAdapter } from './imf.js';
import { nbpAdapter } from './nbp.js';
import { nbuAdapter } from './nbu.js';
import { rbaAdapter } from './rba.js';
import type { SourceEntry } from './registry.js';
import { snbAdapter } from './snb.js';

/** The adapter of every registered source, by key. */
export const ADAPTERS: ReadonlyMap<string, SourceAdapter> = new Map(
  [
    imfAdapter,
    ecbAdapter,
    boeAdapter,
    rbaAdapter,
    snbAdapter,
    bnroAdapter,
    boiAdapter,
    nbuAdapter,
    cbrAdapter,
    bcbAdapter,
    cbnAdapter,
    floatRatesAdapter,
    bocAdapter,
    nbpAdapter,
    cnbAdapter,
    fredAdapter,
  ].map((adapter) => [adapter.key, adapter]),
);

/** The adapter of a registered source; every source in the registry has one. */
export function adapterOf(source: SourceEntry): SourceAdapter {
  const adapter = ADAPTERS.get(source.key);
  if (!adapter) throw new Error(`no adapter for source ${source.key}`);
  return adapter;
}
