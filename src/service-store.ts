import { SOURCE_ROWS } from './sources/registry.js';
import { openStore, type OpenOptions } from './store/open.js';
import type { Store } from './store/store.js';

/** The store at `location`, opened and told which publishers are registered. */
export async function openServiceStore(
  location: string,
  options: OpenOptions = {},
): Promise<Store> {
  const store = await openStore(location, options);
  try {
    await store.syncSources(SOURCE_ROWS);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
