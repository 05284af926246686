import { readFileSync } from 'node:fs';

const SYSTEM_MALLOC = "the C library's malloc";
const PRELOADABLE = /\/lib(jemalloc|tcmalloc\w*|mimalloc)\.so[\d.]*$/;

/**
 * Which malloc this process runs on, for the log at start: a library preloaded in its place
 * (bin/fxrates preloads jemalloc when the system has it), else the C library's. Undefined where
 * the process's mappings cannot be read (not Linux).
 */
export function mallocInUse(maps = '/proc/self/maps'): string | undefined {
  let text: string;
  try {
    text = readFileSync(maps, 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const start = line.indexOf('/');
    if (start < 0) continue;
    const match = PRELOADABLE.exec(line.slice(start));
    if (match) return `${match[1]} (${line.slice(start)})`;
  }
  return SYSTEM_MALLOC;
}

/**
 * The log line at start: the malloc in use, and where it is the C library's (not by choice,
 * FXRATES_MALLOC=system), how to run on jemalloc. Undefined where it cannot be told.
 */
export function mallocReport(systemByChoice: boolean, maps?: string): string | undefined {
  const malloc = mallocInUse(maps);
  if (malloc === undefined) return undefined;
  if (malloc !== SYSTEM_MALLOC || systemByChoice) return `memory allocator: ${malloc}`;
  return (
    `memory allocator: ${malloc}; bin/fxrates (npx fxrates, npm start) preloads jemalloc ` +
    'where it is installed (libjemalloc2), for uncached answers about 10% faster'
  );
}
