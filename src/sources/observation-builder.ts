import { isCalendarDate, zonedTimeToUtc } from '../dates.js';
import type { Observation } from '../store/store.js';
import { isCurrencyCode } from './currencies.js';
import type { Extraction, Publisher } from './publisher.js';
import { isPositiveDecimal, pricePerUnit } from './publisher-text.js';

/** What the builder needs of a publisher: whose observations, and when it fixes its rates. */
export type ObservationSource = Pick<
  Publisher,
  'key' | 'relativeCurrency' | 'timeZone' | 'fixingTime'
>;

const MAX_REASONS = 5;

/**
 * Collects one response's observations for one publisher: checks every code and value, and
 * gives each observation the publisher's documented fixing time on its date, in its time zone.
 * Values arrive as the publisher's decimal text (see `readDecimal`) and are scaled exactly as
 * text; the stored double is made once, at the end, so no float noise creeps in (CONTRACT §6).
 */
export class ObservationBuilder {
  private readonly observations: Observation[] = [];
  private dropped = 0;
  private readonly dropReasons: string[] = [];
  private readonly times = new Map<string, Date>();

  constructor(private readonly source: ObservationSource) {}

  /**
   * Adds "1 unit of the relative currency buys `rateText` units of `symbol` on `date`". The
   * stored double is `Number(rateText)`, whose shortest text is the publisher's figure.
   * Returns false (and counts the drop) when the code or the value cannot be stored.
   */
  add(date: string, symbol: string, rateText: string): boolean {
    if (!isPositiveDecimal(rateText)) {
      return this.drop(`${symbol} on ${date}: ${rateText} is not a positive number`);
    }
    return this.push(date, symbol, Number(rateText));
  }

  /**
   * Adds a quote printed the other way round: `unitsText` units of `symbol` cost `priceText`
   * units of the relative currency (RUB per 100 DZD and the like). The price of one unit is
   * exact decimal text; inverting it is the one division, done once on the double.
   */
  addPrice(date: string, symbol: string, priceText: string, unitsText = '1'): boolean {
    if (!isPositiveDecimal(priceText) || !isPositiveDecimal(unitsText)) {
      return this.drop(
        `${symbol} on ${date}: price ${priceText} per ${unitsText} is not a positive number`,
      );
    }
    return this.push(date, symbol, 1 / Number(pricePerUnit(priceText, unitsText)));
  }

  drop(reason: string): false {
    this.dropped++;
    if (this.dropReasons.length < MAX_REASONS) this.dropReasons.push(reason);
    return false;
  }

  result(): Extraction {
    return {
      observations: this.observations,
      dropped: this.dropped,
      dropReasons: this.dropReasons,
    };
  }

  private push(date: string, symbol: string, rate: number): boolean {
    if (!isCalendarDate(date)) return this.drop(`${symbol}: '${date}' is not a date`);
    if (!isCurrencyCode(symbol)) return this.drop(`'${symbol}' is not a currency code`);
    if (symbol === this.source.relativeCurrency) {
      return this.drop(`${symbol} is the source's own currency`);
    }
    // Decimal text beyond a double's range: 1e-400 reads as 0, 1e400 as Infinity.
    if (!Number.isFinite(rate) || rate <= 0) {
      return this.drop(`${symbol} on ${date}: ${rate} is out of range`);
    }
    this.observations.push({
      source: this.source.key,
      symbol,
      observationTime: this.timeOn(date),
      rate,
    });
    return true;
  }

  private timeOn(date: string): Date {
    let time = this.times.get(date);
    if (!time) {
      time = zonedTimeToUtc(date, this.source.fixingTime, this.source.timeZone);
      this.times.set(date, time);
    }
    return time;
  }
}
