import { readCsvTable } from './csv-table.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, weekdays } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** One day's rates of every currency against the euro, as CSV (the portal's REST service). */
export function bdiUrl(date: string): string {
  return (
    'https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0/dailyRates' +
    `?currencyIsoCode=EUR&lang=en&referenceDate=${date}`
  );
}

/**
 * A row per country: Country, Currency, ISO Code, UIC Code, Rate, Rate convention, Reference
 * date (CET). Countries sharing a currency repeat its rate (the CFA francs, the US dollar): it is
 * kept once. "N.A." marks a rate not available (dropped and counted). The file ends with a
 * disclaimer, lines starting with '#', which are not rows.
 */
export function parseBdiCsv(text: string, source: ObservationSource): Extraction {
  const disclaimer = text.search(/^#/m);
  const table = readCsvTable(disclaimer < 0 ? text : text.slice(0, disclaimer));
  const codeColumn = table.column('ISO Code');
  const rateColumn = table.column('Rate');
  const conventionColumn = table.column('Rate convention');
  const dateColumn = table.column('Reference date (CET)');
  const builder = new ObservationBuilder(source);
  const seen = new Map<string, string>();
  for (const { fields } of table.rows) {
    const code = fields[codeColumn]!.trim();
    const date = fields[dateColumn]!.trim();
    const rate = readDecimal(fields[rateColumn]);
    const key = `${date} ${code}`;
    if (seen.has(key)) {
      if (seen.get(key) !== rate)
        builder.drop(`${code} on ${date}: ${rate} differs from ${seen.get(key)}`);
      continue;
    }
    seen.set(key, rate);
    const convention = fields[conventionColumn]!;
    if (/^Foreign currency amount for 1 Euro/i.test(convention)) {
      builder.add(date, code, rate);
    } else if (/^Euro amount for 1 /i.test(convention)) {
      builder.addPrice(date, code, rate);
    } else {
      builder.drop(`${code} on ${date}: unknown rate convention '${convention}'`);
    }
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bdi',
  name: "Banca d'Italia, daily exchange rates against the euro",
  relativeCurrency: 'EUR',
  url: 'https://tassidicambio.bancaditalia.it/',
  countryCode: 'IT',
  timeZone: 'Europe/Rome',
  fixingTime: '00:00',
  isDst: true,
  historyStart: '1999-01-04',
  publishWindowUtc: { from: '16:00', to: '18:30', weekdaysOnly: true },
  fetches: '`dailyRates` CSV of a business day, every country; disclaimer lines skipped',
  async *fetch(window, context) {
    for (const day of weekdays(window)) {
      const batch = await fetchBatch(context, bdiUrl(day), (text) => parseBdiCsv(text, publisher));
      yield completing(batch, day);
    }
  },
};
