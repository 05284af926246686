import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, windowChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

export const BOT_API_KEY_ENV = 'BOT_API_KEY';

/** Daily averages of commercial banks' rates, THB per unit (or per 100 / 1,000 units). */
export function botUrl(window: FetchWindow): string {
  return (
    'https://gateway.api.bot.or.th/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/' +
    `?end_period=${window.to}&start_period=${window.from}`
  );
}

interface BotRate {
  period?: string;
  currency_id?: string;
  currency_name_eng?: string;
  mid_rate?: string;
}

/** The count of units a name quotes, "JAPAN : YEN (100 YEN) (JPY)" is per 100; 1 without one. */
export function botUnits(name: string): string {
  const match = /\((\d[\d,]*) [^)]*\)/.exec(name);
  return match ? match[1]!.replace(/,/g, '') : '1';
}

/**
 * `result.data.data_detail[]`: `period`, `currency_id` and `mid_rate` (the mean of the banks'
 * buying and selling rates, as published), THB per as many units as the English name says. A
 * day a currency has no mid rate (blank) is skipped; an error answer is refused.
 */
export function parseBotJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as {
    result?: { data?: { data_detail?: BotRate[] } };
    error?: unknown;
    message?: unknown;
  };
  const rows = body?.result?.data?.data_detail;
  if (!Array.isArray(rows)) {
    const why = body?.message ?? body?.error;
    throw new Error(
      `expected JSON with result.data.data_detail[]${why ? `: ${JSON.stringify(why)}` : ''}`,
    );
  }
  const builder = new ObservationBuilder(source);
  for (const row of rows) {
    const mid = (row.mid_rate ?? '').trim();
    if (mid === '') continue;
    builder.addPrice(
      String(row.period),
      String(row.currency_id ?? '').trim(),
      readDecimal(mid),
      botUnits(row.currency_name_eng ?? ''),
    );
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bot',
  name: 'Bank of Thailand, average rates of commercial banks',
  relativeCurrency: 'THB',
  url: 'https://www.bot.or.th/en/statistics/exchange-rate.html',
  countryCode: 'TH',
  timeZone: 'Asia/Bangkok',
  fixingTime: '18:00',
  isDst: false,
  historyStart: '2002-01-02',
  publishWindowUtc: { from: '11:00', to: '13:30', weekdaysOnly: true },
  fetches:
    'API gateway JSON `DAILY_AVG_EXG_RATE` mid rates, per 100/1,000 units applied, 31 days per request',
  apiKey: { variables: [BOT_API_KEY_ENV] },
  async *fetch(window, context) {
    const headers = {
      authorization: context.env[BOT_API_KEY_ENV] ?? '',
      accept: 'application/json',
    };
    for (const chunk of windowChunks(window, 31)) {
      const batch = await fetchBatch(
        context,
        botUrl(chunk),
        (text) => parseBotJson(text, publisher),
        {
          headers,
        },
      );
      yield completing(batch, chunk.to);
    }
  },
};
