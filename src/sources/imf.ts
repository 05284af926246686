import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, monthEnds } from './publisher-fetch.js';
import { isoFromEnglish, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

const REPORT_URL = 'https://www.imf.org/external/np/fin/data/rms_mth.aspx';

/** The IMF prints currency names, not codes; names seen in its reports since 2003. */
const NAME_TO_CODE: Record<string, string> = {
  'afghan afghani': 'AFN',
  'algerian dinar': 'DZD',
  'angolan kwanza': 'AOA',
  'australian dollar': 'AUD',
  'bahamian dollar': 'BSD',
  'bahrain dinar': 'BHD',
  'bahraini dinar': 'BHD',
  'bangladeshi taka': 'BDT',
  'barbados dollar': 'BBD',
  'botswana pula': 'BWP',
  'brazilian real': 'BRL',
  'brunei dollar': 'BND',
  'canadian dollar': 'CAD',
  'chilean peso': 'CLP',
  'chinese yuan': 'CNY',
  'chinese renminbi': 'CNY',
  'colombian peso': 'COP',
  'costa rican colon': 'CRC',
  'czech koruna': 'CZK',
  'danish krone': 'DKK',
  'djibouti franc': 'DJF',
  'egyptian pound': 'EGP',
  euro: 'EUR',
  'fiji dollar': 'FJD',
  'hungarian forint': 'HUF',
  'icelandic krona': 'ISK',
  'indian rupee': 'INR',
  'indonesian rupiah': 'IDR',
  'iranian rial': 'IRR',
  'israeli new shekel': 'ILS',
  'japanese yen': 'JPY',
  'jordanian dinar': 'JOD',
  'kazakhstani tenge': 'KZT',
  'korean won': 'KRW',
  'kuwaiti dinar': 'KWD',
  'libyan dinar': 'LYD',
  'malaysian ringgit': 'MYR',
  'mauritian rupee': 'MUR',
  'mexican peso': 'MXN',
  'moldovan leu': 'MDL',
  'mongolian tugrik': 'MNT',
  'moroccan dirham': 'MAD',
  'mozambican metical': 'MZN',
  'myanmar kyat': 'MMK',
  'namibian dollar': 'NAD',
  'nepalese rupee': 'NPR',
  'new zealand dollar': 'NZD',
  'nigerian naira': 'NGN',
  'norwegian krone': 'NOK',
  'omani rial': 'OMR',
  'pakistani rupee': 'PKR',
  'peruvian sol': 'PEN',
  'peruvian nuevo sol': 'PEN',
  'philippine peso': 'PHP',
  'polish zloty': 'PLN',
  'qatari riyal': 'QAR',
  'romanian leu': 'RON',
  'russian ruble': 'RUB',
  'rwandan franc': 'RWF',
  'samoan tala': 'WST',
  'saudi arabian riyal': 'SAR',
  'singapore dollar': 'SGD',
  'south african rand': 'ZAR',
  'sri lankan rupee': 'LKR',
  'swedish krona': 'SEK',
  'swiss franc': 'CHF',
  'thai baht': 'THB',
  'trinidadian dollar': 'TTD',
  'trinidad and tobago dollar': 'TTD',
  'tunisian dinar': 'TND',
  'u.a.e. dirham': 'AED',
  'u.k. pound': 'GBP',
  'u.k. pound sterling': 'GBP',
  'u.s. dollar': 'USD',
  'ugandan shilling': 'UGX',
  'uruguayan peso': 'UYU',
  'yemeni rial': 'YER',
  'zambian kwacha': 'ZMW',
};

export type ImfReport = 'REP' | 'SDRCV';

/** One month's report; the IMF wants the month's last day even while the month is running. */
export function imfUrl(monthEnd: string, report: ImfReport): string {
  return `${REPORT_URL}?SelectDate=${monthEnd}&reportType=${report}&tsvflag=Y`;
}

/** Column headers like 'March 02, 2026'. */
function headerDate(text: string): string {
  const match = /^([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})$/.exec(text.trim());
  const date = match ? isoFromEnglish(match[2]!, match[1]!, match[3]!) : undefined;
  if (!date) throw new Error(`column header '${text}' is not a date`);
  return date;
}

/**
 * A month of the IMF's tab-separated report, in blocks of date columns. REP: currency units per
 * USD, except names marked "(1)", which are USD per unit (inverted here). SDRCV: SDRs per unit;
 * only its U.S. dollar row is kept, as the USD price of XDR the REP report lacks.
 */
export function parseImfReport(
  text: string,
  report: ImfReport,
  source: ObservationSource,
): Extraction {
  const builder = new ObservationBuilder(source);
  let dates: string[] | undefined;
  let rows = 0;
  for (const line of text.split(/\r?\n/)) {
    const cells = line.split('\t');
    if (cells[0]?.trim() === 'Currency') {
      dates = cells.slice(1).map(headerDate);
      continue;
    }
    if (!dates || cells.length < 2) {
      if (line.trim() === '') dates = undefined;
      continue;
    }
    if (cells.length !== dates.length + 1) {
      throw new Error(
        `row '${cells[0]}' has ${cells.length - 1} values for ${dates.length} dates (cut short?)`,
      );
    }
    rows++;
    const printed = cells[0]!.trim();
    const perUnit = printed.endsWith('(1)');
    const name = printed
      .replace(/\(\d\)\s*$/, '')
      .trim()
      .toLowerCase();
    const code = NAME_TO_CODE[name];
    if (report === 'SDRCV' ? code !== 'USD' : code === source.relativeCurrency) continue;
    if (!code) {
      builder.drop(`unknown currency name '${printed}'`);
      continue;
    }
    cells.slice(1).forEach((cell, index) => {
      if (cell.trim() === 'NA' || cell.trim() === '') return;
      const value = readDecimal(cell);
      const date = dates![index]!;
      if (report === 'SDRCV') builder.add(date, 'XDR', value);
      else if (perUnit) builder.addPrice(date, code, value);
      else builder.add(date, code, value);
    });
  }
  // Early in a month the report has its title and no rows yet; anything else is not a report.
  if (rows === 0 && !/^(Representative Exchange Rates|SDRs per Currency unit)/i.test(text.trim())) {
    throw new Error('response is not an IMF exchange-rate report');
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'imf',
  name: 'International Monetary Fund, representative rates',
  relativeCurrency: 'USD',
  url: 'https://www.imf.org/external/np/fin/data/rms_mth.aspx',
  countryCode: null,
  timeZone: 'America/New_York',
  fixingTime: '12:00',
  isDst: true,
  historyStart: '2003-04-01',
  publishWindowUtc: { from: '18:00', to: '20:30', weekdaysOnly: true },
  fetches:
    'monthly reports `rms_mth.aspx`: REP (names mapped to codes, "(1)" rows inverted) and SDRCV (for XDR)',
  async *fetch(window, context) {
    for (const monthEnd of monthEnds(window)) {
      const parse = (report: ImfReport) => (text: string) =>
        parseImfReport(text, report, publisher);
      yield await fetchBatch(context, imfUrl(monthEnd, 'REP'), parse('REP'));
      const sdr = await fetchBatch(context, imfUrl(monthEnd, 'SDRCV'), parse('SDRCV'));
      yield completing(sdr, monthEnd < window.to ? monthEnd : window.to);
    }
  },
};
