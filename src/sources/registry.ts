/**
 * Every source the service knows: identity and publishing facts in one place, one entry each
 * (CONTRACT §2). Adapters read their time zone and fixing time from here to compute
 * observation times; the store mirrors the public fields into its `sources` table.
 */
export interface SourceEntry {
  /** Short name used in URLs and responses. */
  key: string;
  name: string;
  /** The currency the source quotes against: 1 unit of it buys `rate` units of a symbol. */
  relativeCurrency: string;
  /** Where the source publishes its data. */
  url: string;
  /** IANA time zone of the publisher. */
  timeZone: string;
  /** Documented local fixing or publication time, HH:MM; 00:00 when the publisher documents none. */
  fixingTime: string;
  /** True when the publisher's time zone observes daylight-saving time (CONTRACT §1). */
  isDst: boolean;
  /** First date the publisher's data can be fetched from; a first ingest backfills from here. */
  historyStart: string;
  /**
   * When new figures usually appear, as UTC HH:MM; ingestion polls every half hour across this
   * window (publishers are often late) on the listed days.
   */
  publishWindowUtc: { from: string; to: string; weekdaysOnly: boolean };
}

const weekdays = (from: string, to: string) => ({ from, to, weekdaysOnly: true });
const everyDay = (from: string, to: string) => ({ from, to, weekdaysOnly: false });

export const SOURCES: readonly SourceEntry[] = [
  {
    key: 'imf',
    name: 'International Monetary Fund, representative rates',
    relativeCurrency: 'USD',
    url: 'https://www.imf.org/external/np/fin/data/rms_mth.aspx',
    timeZone: 'America/New_York',
    fixingTime: '12:00',
    isDst: true,
    historyStart: '2003-04-01',
    publishWindowUtc: weekdays('18:00', '20:30'),
  },
  {
    key: 'ecb',
    name: 'European Central Bank, euro reference rates',
    relativeCurrency: 'EUR',
    url: 'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html',
    timeZone: 'Europe/Berlin',
    fixingTime: '16:00',
    isDst: true,
    historyStart: '1999-01-04',
    publishWindowUtc: weekdays('14:00', '16:30'),
  },
  {
    key: 'boe',
    name: 'Bank of England, spot rates against sterling',
    relativeCurrency: 'GBP',
    url: 'https://www.bankofengland.co.uk/boeapps/database/Rates.asp?into=GBP',
    timeZone: 'Europe/London',
    fixingTime: '16:00',
    isDst: true,
    historyStart: '1975-01-02',
    publishWindowUtc: weekdays('16:00', '18:30'),
  },
  {
    key: 'rba',
    name: 'Reserve Bank of Australia, F11 exchange rates',
    relativeCurrency: 'AUD',
    url: 'https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv',
    timeZone: 'Australia/Sydney',
    fixingTime: '16:00',
    isDst: true,
    historyStart: '2023-01-03',
    publishWindowUtc: weekdays('05:00', '07:30'),
  },
  {
    key: 'snb',
    name: 'Swiss National Bank, foreign exchange rates',
    relativeCurrency: 'CHF',
    url: 'https://data.snb.ch/en/topics/ziredev/cube/devkum',
    timeZone: 'Europe/Zurich',
    fixingTime: '11:00',
    isDst: true,
    historyStart: '2000-01-01',
    publishWindowUtc: everyDay('08:00', '11:00'),
  },
  {
    key: 'bnro',
    name: 'National Bank of Romania, reference rates',
    relativeCurrency: 'RON',
    url: 'https://www.bnr.ro/en/561-exchange-rates',
    timeZone: 'Europe/Bucharest',
    fixingTime: '13:00',
    isDst: true,
    historyStart: '2005-01-03',
    publishWindowUtc: weekdays('11:00', '13:30'),
  },
  {
    key: 'boi',
    name: 'Bank of Israel, representative rates',
    relativeCurrency: 'ILS',
    url: 'https://www.boi.org.il/en/economic-roles/statistics/foreign-exchange-market/exchange-rates/',
    timeZone: 'Asia/Jerusalem',
    fixingTime: '15:30',
    isDst: true,
    historyStart: '1990-01-01',
    publishWindowUtc: weekdays('12:00', '14:30'),
  },
  {
    key: 'nbu',
    name: 'National Bank of Ukraine, official rates',
    relativeCurrency: 'UAH',
    url: 'https://bank.gov.ua/en/markets/exchangerates',
    timeZone: 'Europe/Kyiv',
    fixingTime: '15:30',
    isDst: true,
    historyStart: '1996-01-06',
    publishWindowUtc: everyDay('10:00', '12:30'),
  },
  {
    key: 'cbr',
    name: 'Central Bank of Russia, official rates',
    relativeCurrency: 'RUB',
    url: 'https://www.cbr.ru/eng/currency_base/daily/',
    timeZone: 'Europe/Moscow',
    fixingTime: '15:30',
    isDst: false,
    historyStart: '1992-07-01',
    publishWindowUtc: weekdays('09:00', '11:30'),
  },
  {
    key: 'bcb',
    name: 'Banco Central do Brasil, PTAX',
    relativeCurrency: 'BRL',
    url: 'https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata/',
    timeZone: 'America/Sao_Paulo',
    fixingTime: '13:00',
    isDst: false,
    historyStart: '1984-11-28',
    publishWindowUtc: weekdays('16:00', '18:30'),
  },
  {
    key: 'cbn',
    name: 'Central Bank of Nigeria, official rates',
    relativeCurrency: 'NGN',
    url: 'https://www.cbn.gov.ng/rates/exchratebycurrency.asp',
    timeZone: 'Africa/Lagos',
    fixingTime: '00:00',
    isDst: false,
    historyStart: '2001-12-10',
    publishWindowUtc: weekdays('15:00', '17:30'),
  },
  {
    key: 'float_rates',
    name: 'FloatRates daily feed',
    relativeCurrency: 'USD',
    url: 'https://www.floatrates.com/json-feeds.html',
    timeZone: 'UTC',
    fixingTime: '00:00',
    isDst: false,
    historyStart: '2000-01-01',
    publishWindowUtc: everyDay('00:00', '23:30'),
  },
  // Beyond the contract's list: numbered after it (CONTRACT §2).
  {
    key: 'boc',
    name: 'Bank of Canada, daily exchange rates',
    relativeCurrency: 'CAD',
    url: 'https://www.bankofcanada.ca/rates/exchange/daily-exchange-rates/',
    timeZone: 'America/Toronto',
    fixingTime: '16:30',
    isDst: true,
    historyStart: '2017-01-03',
    publishWindowUtc: weekdays('20:30', '23:00'),
  },
  {
    key: 'nbp',
    name: 'Narodowy Bank Polski, average rates (tables A and B)',
    relativeCurrency: 'PLN',
    url: 'https://nbp.pl/en/statistic-and-financial-reporting/rates/',
    timeZone: 'Europe/Warsaw',
    fixingTime: '12:00',
    isDst: true,
    historyStart: '2002-01-02',
    publishWindowUtc: weekdays('10:30', '13:00'),
  },
  {
    key: 'cnb',
    name: 'Czech National Bank, exchange rate fixing',
    relativeCurrency: 'CZK',
    url: 'https://www.cnb.cz/en/financial-markets/foreign-exchange-market/central-bank-exchange-rate-fixing/',
    timeZone: 'Europe/Prague',
    fixingTime: '14:30',
    isDst: true,
    historyStart: '1991-01-01',
    publishWindowUtc: weekdays('12:30', '15:00'),
  },
  {
    key: 'fred',
    name: 'Federal Reserve H.10 noon buying rates, via FRED',
    relativeCurrency: 'USD',
    url: 'https://fred.stlouisfed.org/release?rid=17',
    timeZone: 'America/New_York',
    fixingTime: '12:00',
    isDst: true,
    historyStart: '1971-01-04',
    publishWindowUtc: weekdays('20:00', '23:30'),
  },
];

/** Default priority orders of SPEC.md. Keys not registered (bac, gaf) are skipped; `rab` is `rba` misspelt (CONTRACT §2). */
const SPEC_DEFAULT_ORDER = 'imf,ecb,boe,bac,rba,snb,bnro,boi,nbu,cbr,bcb,cbn,gaf,float_rates';
const SPEC_ALL_ORDER = 'imf,rba,bac,ecb,bnro,snb,cbr,nbu,boi,cbn,boe,gaf,bcb,float_rates';

const byKey = new Map(SOURCES.map((entry) => [entry.key, entry]));

export function findSource(key: string): SourceEntry | undefined {
  return byKey.get(key.toLowerCase());
}

/** Position in the default priority order, starting at 0; sources beyond the contract's list follow it. */
export function defaultPrecedence(key: string): number {
  return SOURCES.findIndex((entry) => entry.key === key);
}

function registeredOrder(spec: string): string[] {
  const listed = spec.split(',').filter((key) => byKey.has(key));
  const rest = SOURCES.map((entry) => entry.key).filter((key) => !listed.includes(key));
  return [...listed, ...rest];
}

/** Default `sources` of latest, date, range, currencies and sources. */
export const DEFAULT_SOURCE_ORDER: readonly string[] = registeredOrder(SPEC_DEFAULT_ORDER);
/** Default `sources` of the all endpoint. */
export const ALL_ENDPOINT_SOURCE_ORDER: readonly string[] = registeredOrder(SPEC_ALL_ORDER);
