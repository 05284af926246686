import { isCalendarDate, zonedTimeToUtc } from '../dates.js';
import type { Observation } from '../store/store.js';
import { isCurrencyCode } from './currencies.js';
import type { SourceEntry } from './registry.js';

/** What a parser made of one response: observations in CONTRACT §1 form and what it refused. */
export interface Extraction {
  observations: Observation[];
  /** Values that were not positive finite numbers, codes that are not currencies, and the like. */
  dropped: number;
  /** The first few reasons for dropping, for logs and the status endpoint. */
  dropReasons: string[];
}

const MAX_REASONS = 5;

/**
 * Collects one response's observations for one source: checks every code and value, and gives
 * each observation the source's documented fixing time on its date, in the source's time zone.
 */
export class ObservationBuilder {
  private readonly observations: Observation[] = [];
  private dropped = 0;
  private readonly dropReasons: string[] = [];
  private readonly times = new Map<string, Date>();

  constructor(private readonly source: SourceEntry) {}

  /**
   * Adds "1 unit of the source's relative currency buys `rate` units of `symbol` on `date`".
   * Returns false (and counts the drop) when the code or the value cannot be stored.
   */
  add(date: string, symbol: string, rate: number): boolean {
    if (!isCalendarDate(date)) return this.drop(`${symbol}: '${date}' is not a date`);
    if (!isCurrencyCode(symbol)) return this.drop(`'${symbol}' is not a currency code`);
    if (symbol === this.source.relativeCurrency) {
      return this.drop(`${symbol} is the source's own currency`);
    }
    if (!Number.isFinite(rate) || rate <= 0) {
      return this.drop(`${symbol} on ${date}: ${rate} is not a positive number`);
    }
    this.observations.push({
      source: this.source.key,
      symbol,
      observationTime: this.timeOn(date),
      rate,
    });
    return true;
  }

  /**
   * Adds a quote printed the other way round: `units` of `symbol` cost `price` units of the
   * relative currency (RUB per 100 DZD and the like).
   */
  addPrice(date: string, symbol: string, price: number, units = 1): boolean {
    if (!Number.isFinite(price) || price <= 0 || !Number.isFinite(units) || units <= 0) {
      return this.drop(
        `${symbol} on ${date}: price ${price} per ${units} is not a positive number`,
      );
    }
    return this.add(date, symbol, units / price);
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

  private timeOn(date: string): Date {
    let time = this.times.get(date);
    if (!time) {
      time = zonedTimeToUtc(date, this.source.fixingTime, this.source.timeZone);
      this.times.set(date, time);
    }
    return time;
  }
}
