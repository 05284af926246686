/**
 * The README's table of registered sources, written from the publisher modules between two
 * marker comments: `npm run docs:sources`. test/sources/registry.test.ts fails when the README's
 * table no longer says what the modules say.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Publisher } from '../src/sources/publisher.js';
import { SOURCES } from '../src/sources/registry.js';

export const README = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'README.md');
export const TABLE_START =
  '<!-- sources-table: written by `npm run docs:sources` from src/sources -->';
export const TABLE_END = '<!-- /sources-table -->';

const cell = (text: string): string => text.replaceAll('|', '\\|').replace(/\s+/g, ' ').trim();

function fetched(publisher: Publisher): string {
  const variables = publisher.apiKey?.variables ?? [];
  const needs =
    variables.length > 0 ? `; needs ${variables.map((v) => `\`${v}\``).join(', ')}` : '';
  return publisher.fetches + needs;
}

function fixing(publisher: Publisher): string {
  const time = `${publisher.fixingTime} ${publisher.timeZone}`;
  // CONTRACT §1: a publisher that documents no time is stored at 00:00 local time.
  return publisher.fixingTime === '00:00' ? `${time} (none documented)` : time;
}

/** The table, one row per registered source in default priority order. */
export function sourcesTable(): string {
  const rows = SOURCES.map((p) =>
    [
      `\`${p.key}\``,
      `${p.name} (${p.relativeCurrency})`,
      p.countryCode ?? '—',
      fetched(p),
      p.historyStart,
      fixing(p),
    ].map(cell),
  );
  return [
    '| key | publisher (relative currency) | country | fetched | history from | fixing time |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/** The text between the markers: the table as the README has it. */
export function tableInReadme(readme: string): string {
  const [start, end] = markers(readme);
  return readme.slice(start + TABLE_START.length, end).trim();
}

/** The README with the table between the markers written afresh. */
export function withSourcesTable(readme: string): string {
  const [start, end] = markers(readme);
  // Blank lines around the table keep the marker comments from reading as table rows.
  return `${readme.slice(0, start + TABLE_START.length)}\n\n${sourcesTable()}\n\n${readme.slice(end)}`;
}

function markers(readme: string): [number, number] {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) {
    throw new Error(`README.md lacks the markers ${TABLE_START} and ${TABLE_END}`);
  }
  return [start, end];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const readme = readFileSync(README, 'utf8');
  const updated = withSourcesTable(readme);
  if (updated === readme) {
    console.log('README.md: the sources table is up to date');
  } else {
    writeFileSync(README, updated);
    console.log(`README.md: sources table written (${SOURCES.length} sources)`);
  }
}
