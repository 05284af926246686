import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import {
  completing,
  fetchBatch,
  monthEnds,
  requireXmlRoot,
  xmlAttribute,
  xmlChildText,
} from './publisher-fetch.js';
import { isoFromDotted, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

const NBKR = 'https://www.nbkr.kg';
/** The rates set today for the five main currencies, and this week's for the others. */
export const NBKR_DAILY_URL = `${NBKR}/XML/daily.xml`;
export const NBKR_WEEKLY_URL = `${NBKR}/XML/weekly.xml`;
/** The declared charset of the XML files (their content is ASCII). */
const CHARSETS = ['windows-1251', 'utf-8'];

/** The bank's ids of the currencies whose history its archive page serves. */
export const NBKR_ARCHIVE_IDS: Record<string, number> = { USD: 15, EUR: 20 };

/** One currency's official rates over one window, from the archive page (a bare HTML table). */
export function nbkrArchiveUrl(currencyId: number, window: FetchWindow): string {
  const [beginYear, beginMonth, beginDay] = window.from.split('-');
  const [endYear, endMonth, endDay] = window.to.split('-');
  return (
    `${NBKR}/index1.jsp?beg_day=${beginDay}&beg_month=${beginMonth}&beg_year=${beginYear}` +
    `&end_day=${endDay}&end_month=${endMonth}&end_year=${endYear}` +
    `&item=1562&lang=ENG&valuta_id=${currencyId}`
  );
}

/**
 * `daily.xml` and `weekly.xml`: `<CurrencyRates Date>` (dd.mm.yyyy) with one `<Currency ISOCode>`
 * each, KGS per `<Nominal>` units (10, 100) with a decimal comma. Weekly rates stay valid for
 * `<ValidFor>` days; they are stored on the date they were set.
 */
export function parseNbkrXml(text: string, source: ObservationSource): Extraction {
  requireXmlRoot(text, 'CurrencyRates');
  const builder = new ObservationBuilder(source);
  const root = /<CurrencyRates\s[^>]*>/.exec(text)?.[0] ?? '';
  const date = isoFromDotted(xmlAttribute(root, 'Date'));
  for (const currency of text.matchAll(/<Currency\s[^>]*>[\s\S]*?<\/Currency>/g)) {
    builder.addPrice(
      date,
      xmlAttribute(currency[0], 'ISOCode') ?? '',
      readDecimal(xmlChildText(currency[0], 'Value'), true),
      readDecimal(xmlChildText(currency[0], 'Nominal') ?? '1'),
    );
  }
  return builder.result();
}

/**
 * The archive page: a `<table>` whose rows mark their date and value with comments,
 * `<!--date-->dd.mm.yyyy<!--date-->` and `<!--value-->40,9614<!--value-->`: KGS per unit of
 * the requested currency.
 */
export function parseNbkrArchive(
  text: string,
  code: string,
  source: ObservationSource,
): Extraction {
  if (!/^\s*<table[\s>]/i.test(text)) throw new Error('expected the archive table');
  if (!/<\/table>\s*$/i.test(text)) throw new Error('the archive table ends early (cut short?)');
  const builder = new ObservationBuilder(source);
  for (const row of text.matchAll(/<tr[\s>][\s\S]*?<\/tr>/gi)) {
    const date = /<!--date-->([^<]*)<!--date-->/.exec(row[0])?.[1]?.trim();
    const value = /<!--value-->([^<]*)<!--value-->/.exec(row[0])?.[1];
    if (date === undefined || value === undefined) {
      builder.drop(`${code}: a row without a marked date and value`);
      continue;
    }
    builder.addPrice(isoFromDotted(date), code, readDecimal(value, true));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'nbkr',
  name: 'National Bank of the Kyrgyz Republic, official exchange rates',
  relativeCurrency: 'KGS',
  url: 'https://www.nbkr.kg/index1.jsp?item=1562&lang=ENG',
  countryCode: 'KG',
  timeZone: 'Asia/Bishkek',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '1999-01-01',
  publishWindowUtc: { from: '08:00', to: '10:30', weekdaysOnly: true },
  fetches:
    'archive HTML table of USD and EUR a month per request; the current `daily.xml` and `weekly.xml` (decimal commas, `Nominal` applied)',
  async *fetch(window, context) {
    // The archive serves the history of USD and EUR only, a month at a time.
    for (const monthEnd of monthEnds(window)) {
      const month: FetchWindow = {
        from: `${monthEnd.slice(0, 8)}01` > window.from ? `${monthEnd.slice(0, 8)}01` : window.from,
        to: monthEnd < window.to ? monthEnd : window.to,
      };
      const codes = Object.entries(NBKR_ARCHIVE_IDS);
      for (const [index, [code, id]] of codes.entries()) {
        const batch = await fetchBatch(context, nbkrArchiveUrl(id, month), (text) =>
          parseNbkrArchive(text, code, publisher),
        );
        yield index === codes.length - 1 ? completing(batch, month.to) : batch;
      }
    }
    // The other currencies exist only as the files of the day and of the week.
    const options = { charsets: CHARSETS };
    for (const url of [NBKR_DAILY_URL, NBKR_WEEKLY_URL]) {
      yield await fetchBatch(context, url, (text) => parseNbkrXml(text, publisher), options);
    }
  },
};
