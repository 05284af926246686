/**
 * Writes a generated observations CSV (`source,symbol,observation_time,rate`) for benchmarks and
 * large-input tests: several sources with their own currencies, one observation per symbol and
 * business day, figures with four decimals, in date order.
 *
 *   node --import tsx scripts/generate-observations.ts FILE COUNT
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const SOURCES: [string, string, string[]][] = [
  ['ecb', 'EUR', ['USD', 'JPY', 'GBP', 'CHF', 'SEK', 'NOK', 'DKK', 'CAD', 'AUD', 'CNY']],
  ['imf', 'USD', ['EUR', 'JPY', 'GBP', 'CHF', 'CNY', 'INR', 'BRL', 'MXN', 'ZAR', 'KRW']],
  ['boe', 'GBP', ['USD', 'EUR', 'JPY', 'CHF', 'CAD', 'AUD', 'NZD', 'HKD', 'SGD', 'SEK']],
  ['cbr', 'RUB', ['USD', 'EUR', 'CNY', 'TRY', 'KZT', 'BYN', 'AMD', 'GEL', 'UZS', 'INR']],
];

/** The generated sources' keys, as a `sources` query parameter lists them. */
export const GENERATED_SOURCE_KEYS = SOURCES.map(([key]) => key).join(',');

/** The date of the first generated observation. */
export const GENERATED_FIRST_DATE = '1900-01-01';

/** The date of the last of `count` generated observations: one per symbol each business day. */
export function generatedLastDate(count: number): string {
  const perDay = SOURCES.reduce((sum, [, , symbols]) => sum + symbols.length, 0);
  let days = Math.ceil(count / perDay);
  for (let day = 0; ; day++) {
    const date = new Date(Date.UTC(1900, 0, 1) + day * 86_400_000);
    const weekday = date.getUTCDay();
    if (weekday !== 0 && weekday !== 6 && --days === 0) return date.toISOString().slice(0, 10);
  }
}

/** Writes `count` observations to `path`, starting on 1900-01-01 and going forward. */
export async function generateObservations(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('source,symbol,observation_time,rate\n');
  let written = 0;
  for (let day = 0; written < count; day++) {
    const date = new Date(Date.UTC(1900, 0, 1) + day * 86_400_000);
    const weekday = date.getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const stamp = `${date.toISOString().slice(0, 10)}T15:00:00Z`;
    let chunk = '';
    for (const [source, , symbols] of SOURCES) {
      for (const [index, symbol] of symbols.entries()) {
        if (written === count) break;
        const rate = (1 + index + ((day * 7919 + index * 104729) % 10_000) / 10_000).toFixed(4);
        chunk += `${source},${symbol},${stamp},${rate}\n`;
        written++;
      }
    }
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [path, count] = process.argv.slice(2);
  if (!path || !/^\d+$/.test(count ?? '')) {
    process.stderr.write('usage: generate-observations.ts FILE COUNT\n');
    process.exit(2);
  }
  await generateObservations(path, Number(count));
}
