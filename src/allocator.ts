import { readFileSync } from 'node:fs';

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
  return "the C library's malloc";
}
