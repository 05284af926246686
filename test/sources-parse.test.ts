import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { plannedWindow } from '../src/ingest/ingest-source.js';
import { nextPollAfter } from '../src/ingest/schedule.js';
import { monthEnds, windowChunks, yearChunks } from '../src/sources/adapter.js';
import { bcbUrl, parseBcbJson } from '../src/sources/bcb.js';
import { parseBnroXml } from '../src/sources/bnro.js';
import { parseBocJson } from '../src/sources/boc.js';
import { boeUrl, parseBoeCsv } from '../src/sources/boe.js';
import { parseBoiCsv } from '../src/sources/boi.js';
import { parseCbnJson } from '../src/sources/cbn.js';
import { parseCbrDaily, parseCbrDynamic, parseCbrMetals } from '../src/sources/cbr.js';
import { parseCnbJson } from '../src/sources/cnb.js';
import { parseEcbCsv } from '../src/sources/ecb.js';
import { parseFloatRatesJson } from '../src/sources/float-rates.js';
import { parseFredJson } from '../src/sources/fred.js';
import { decodeBody, SourceHttp } from '../src/sources/http-client.js';
import { parseImfReport } from '../src/sources/imf.js';
import { parseNbpGold, parseNbpTables } from '../src/sources/nbp.js';
import { parseNbuJson } from '../src/sources/nbu.js';
import { parseRbaCsv } from '../src/sources/rba.js';
import { findSource, type SourceEntry } from '../src/sources/registry.js';
import { parseSnbCube } from '../src/sources/snb.js';
import type { Extraction } from '../src/sources/observation-builder.js';

const source = (key: string): SourceEntry => findSource(key)!;

/** Observations as [symbol, ISO time, rate], for compact assertions. */
function rows(extraction: Extraction): [string, string, number][] {
  return extraction.observations.map((o) => [o.symbol, o.observationTime.toISOString(), o.rate]);
}

describe('publisher parsers on small inline samples', () => {
  test('ecb: bad values and non-currency codes are dropped and counted; a cut-off body fails', () => {
    const text =
      'KEY,FREQ,CURRENCY,TIME_PERIOD,OBS_VALUE\n' +
      'EXR.D.USD.EUR.SP00.A,D,USD,2024-07-01,1.0746\n' +
      'EXR.D.JPY.EUR.SP00.A,D,JPY,2024-01-02,NaN\n' +
      'EXR.D.ZZZ.EUR.SP00.A,D,ZZZ,2024-01-02,1.5\n' +
      'EXR.D.CHF.EUR.SP00.A,D,CHF,2024-01-02,-0.9\n' +
      'EXR.D.GBP.EUR.SP00.A,D,GBP,2024-01-02,0.86\n';
    const result = parseEcbCsv(text, source('ecb'));
    assert.deepEqual(rows(result), [
      ['USD', '2024-07-01T14:00:00.000Z', 1.0746], // summer: 16:00 CEST
      ['GBP', '2024-01-02T15:00:00.000Z', 0.86], // winter: 16:00 CET
    ]);
    assert.equal(result.dropped, 3);
    assert.match(
      result.dropReasons.join(' | '),
      /NaN is not a positive number.*'ZZZ' is not a currency code.*-0.9/,
    );
    assert.throws(() => parseEcbCsv(text.slice(0, -8), source('ecb')), /cut short/);
    assert.throws(() => parseEcbCsv('A,B\n1,2\n', source('ecb')), /header lacks CURRENCY/);
  });

  test('imf: names to codes, "(1)" rows inverted, NA skipped, thousands separators read', () => {
    const text = [
      'Representative Exchange Rates for Selected Currencies for January 2024',
      'Currency\tJanuary 02, 2024\tJanuary 03, 2024',
      'Euro(1)\t1.250000\tNA',
      'Korean won\t1,300.500000\t1,301.000000',
      'U.S. dollar\t1.000000\t1.000000',
      'Atlantean drachma\t2.0\t2.0',
      '',
      'Notes: (1) in terms of U.S. dollars per currency unit',
    ].join('\r\n');
    const result = parseImfReport(text, 'REP', source('imf'));
    assert.deepEqual(rows(result), [
      ['EUR', '2024-01-02T17:00:00.000Z', 0.8],
      ['KRW', '2024-01-02T17:00:00.000Z', 1300.5],
      ['KRW', '2024-01-03T17:00:00.000Z', 1301],
    ]);
    assert.deepEqual(result.dropReasons, ["unknown currency name 'Atlantean drachma'"]);
    const sdr =
      'SDRs per Currency unit for January 2024\nCurrency\tJanuary 02, 2024\nEuro\t0.83\nU.S. dollar\t0.75\n';
    assert.deepEqual(rows(parseImfReport(sdr, 'SDRCV', source('imf'))), [
      ['XDR', '2024-01-02T17:00:00.000Z', 0.75],
    ]);
    // Early in a month the report has no rows yet: nothing to store, no failure.
    assert.equal(
      parseImfReport(
        'Representative Exchange Rates for Selected Currencies for February 2024\r\n',
        'REP',
        source('imf'),
      ).observations.length,
      0,
    );
    assert.throws(
      () => parseImfReport(text.replace('\t1,301.000000', ''), 'REP', source('imf')),
      /1 values for 2 dates/,
    );
    assert.throws(
      () => parseImfReport('Service unavailable', 'REP', source('imf')),
      /not an IMF exchange-rate report/,
    );
  });

  test('boe: series codes to currencies, empty cells skipped, the request names every series', () => {
    const text = 'DATE,XUDLUSS,XUDLJYS\r\n02 Jul 2024,1.2646,\r\n03 Jan 2024,1.2665,180.9\r\n';
    assert.deepEqual(rows(parseBoeCsv(text, source('boe'))), [
      ['USD', '2024-07-02T15:00:00.000Z', 1.2646], // 16:00 BST
      ['USD', '2024-01-03T16:00:00.000Z', 1.2665],
      ['JPY', '2024-01-03T16:00:00.000Z', 180.9],
    ]);
    assert.match(
      boeUrl({ from: '2024-01-03', to: '2024-07-02' }),
      /Datefrom=03\/Jan\/2024&Dateto=02\/Jul\/2024&SeriesCodes=XUDLUSS,XUDLERS,/,
    );
    assert.throws(() => parseBoeCsv('<p>no data</p>\n', source('boe')), /not DATE/);
  });

  test('rba: preamble rows give the currencies; the index and empty cells are skipped; SDR is XDR', () => {
    const text =
      '\ufeffF11.1  EXCHANGE RATES\nTitle,A$1=USD,TWI,A$1=SDR\nUnits,USD,Index,SDR\n' +
      'Series ID,FXRUSD,FXRTWI,FXRSDR\n02-Jan-2024,0.6812,60.9,\n03-Jul-2024,0.6702,61.2,0.5071\n\n\n';
    assert.deepEqual(rows(parseRbaCsv(text, source('rba'))), [
      ['USD', '2024-01-02T05:00:00.000Z', 0.6812], // 16:00 AEDT
      ['USD', '2024-07-03T06:00:00.000Z', 0.6702], // 16:00 AEST
      ['XDR', '2024-07-03T06:00:00.000Z', 0.5071],
    ]);
    assert.throws(() => parseRbaCsv('02-Jan-2024,0.6812\n', source('rba')), /before the Units/);
  });

  test('snb: month-end series only, per-100 quotes inverted, float noise rounded away', () => {
    const cube = JSON.stringify({
      timeseries: [
        { metadata: { key: 'EPB@SNB.devkum{M0,USD1}' }, values: [{ date: '2024-06', value: 0.9 }] },
        {
          metadata: { key: 'EPB@SNB.devkum{M1,JPY100}' },
          values: [{ date: '2024-06', value: 0.5599999999999999 }],
        },
        {
          metadata: { key: 'EPB@SNB.devkum{M1,USD3M}' },
          values: [{ date: '2024-06', value: 0.89 }],
        },
      ],
    });
    // June 2024 ends on a Sunday: the month-end rate is Friday the 28th, 11:00 CEST.
    assert.deepEqual(rows(parseSnbCube(cube, source('snb'))), [
      ['JPY', '2024-06-28T09:00:00.000Z', 100 / 0.56],
    ]);
    assert.throws(() => parseSnbCube('{"error":"unknown cube"}', source('snb')), /no timeseries/);
  });

  test('bnro: multipliers divide, gold per gram becomes per troy ounce', () => {
    const text =
      '<?xml version="1.0" encoding="utf-8"?><DataSet><Body><Cube date="2024-01-03">' +
      '<Rate currency="EUR">4.9713</Rate><Rate currency="HUF" multiplier="100">1.3049</Rate>' +
      '<Rate currency="XAU">300.5</Rate><Rate currency="RON">1</Rate></Cube></Body></DataSet>';
    const result = parseBnroXml(text, source('bnro'));
    assert.deepEqual(rows(result), [
      ['EUR', '2024-01-03T11:00:00.000Z', 1 / 4.9713],
      ['HUF', '2024-01-03T11:00:00.000Z', 100 / 1.3049],
      ['XAU', '2024-01-03T11:00:00.000Z', 1 / (300.5 * 31.1034768)],
    ]);
    assert.deepEqual(result.dropReasons, ["RON is the source's own currency"]);
    assert.throws(() => parseBnroXml(text.slice(0, -20), source('bnro')), /cut short/);
  });

  test('boi: UNIT_MULT is a power of ten; rows against another currency are dropped', () => {
    const text =
      'SERIES_CODE,BASE_CURRENCY,COUNTER_CURRENCY,UNIT_MULT,TIME_PERIOD,OBS_VALUE\n' +
      'RER_JPY_ILS,JPY,ILS,2,2024-01-02,2.561\nRER_LBP_ILS,LBP,ILS,1,2024-01-02,0.0024\n' +
      'RER_USD_EUR,USD,EUR,0,2024-01-02,0.91\n';
    const result = parseBoiCsv(text, source('boi'));
    assert.deepEqual(rows(result), [
      ['JPY', '2024-01-02T13:30:00.000Z', 100 / 2.561],
      ['LBP', '2024-01-02T13:30:00.000Z', 10 / 0.0024],
    ]);
    assert.equal(result.dropped, 1);
  });

  test('nbu: rate per `units`, dd.mm.yyyy dates, weekends kept', () => {
    const text = JSON.stringify([
      { exchangedate: '06.07.2024', cc: 'JPY', rate: 2.5, units: 10 },
      { exchangedate: '06.07.2024', cc: 'XXX', rate: 1, units: 1 },
      { exchangedate: '06.07.2024', cc: 'USD', rate: 0, units: 1 },
    ]);
    const result = parseNbuJson(text, source('nbu'));
    assert.deepEqual(rows(result), [['JPY', '2024-07-06T12:30:00.000Z', 4]]); // 15:30 EEST
    assert.equal(result.dropped, 2);
  });

  test('cbr: windows-1251 bytes, decimal commas and Nominal; metals from the buy/sell midpoint', () => {
    const xml =
      '<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="02.07.2024" name="Foreign Currency Market">' +
      '<Valute ID="R01030"><NumCode>012</NumCode><CharCode>DZD</CharCode><Nominal>100</Nominal>' +
      '<Name>Алжирских динаров</Name><Value>65,1234</Value></Valute></ValCurs>';
    const bytes = new Uint8Array(
      [...xml].map((char) => {
        const code = char.charCodeAt(0);
        return code >= 0x410 && code <= 0x44f ? code - 0x410 + 0xc0 : code; // Cyrillic А-я in 1251
      }),
    );
    const text = decodeBody('http://cbr.test/', bytes, 'text/xml; charset=windows-1251', [
      'windows-1251',
      'utf-8',
    ]);
    assert.match(text, /Алжирских динаров/);
    const daily = parseCbrDaily(text, source('cbr'));
    assert.deepEqual(rows(daily), [['DZD', '2024-07-02T12:30:00.000Z', 100 / 65.1234]]);
    assert.deepEqual(daily.currencies, [{ id: 'R01030', code: 'DZD' }]);
    const dynamic =
      '<ValCurs ID="R01235"><Record Date="02.07.2024" Id="R01235"><Nominal>1</Nominal><Value>87,7866</Value></Record></ValCurs>';
    assert.deepEqual(rows(parseCbrDynamic(dynamic, 'USD', source('cbr'))), [
      ['USD', '2024-07-02T12:30:00.000Z', 1 / 87.7866],
    ]);
    const metals =
      '<Metall><Record Date="02.07.2024" Code="1"><Buy>6800,00</Buy><Sell>6900,00</Sell></Record>' +
      '<Record Date="02.07.2024" Code="9"><Buy>1</Buy><Sell>1</Sell></Record></Metall>';
    const metal = parseCbrMetals(metals, source('cbr'));
    assert.deepEqual(rows(metal), [['XAU', '2024-07-02T12:30:00.000Z', 1 / (6850 * 31.1034768)]]);
    assert.equal(metal.dropped, 1);
  });

  test('bcb: the midpoint of buying and selling rates; dates as MM-DD-YYYY in the request', () => {
    const text = JSON.stringify({
      value: [
        {
          cotacaoCompra: 4.8,
          cotacaoVenda: 4.9,
          dataHoraCotacao: '2024-01-02 13:04:00.123',
          tipoBoletim: 'Fechamento',
        },
      ],
    });
    assert.deepEqual(rows(parseBcbJson(text, 'USD', source('bcb'))), [
      ['USD', '2024-01-02T16:00:00.000Z', 1 / 4.85],
    ]);
    assert.match(
      bcbUrl('USD', { from: '2024-01-02', to: '2024-12-31' }),
      /@dataFinalCotacao=%2712-31-2024%27&@dataInicial=%2701-02-2024%27&@moeda=%27USD%27$/,
    );
  });

  test('cbn: name variants to codes, WAUA dropped, buy/sell midpoint', () => {
    const text = JSON.stringify([
      {
        currency: ' POUNDS  STERLING ',
        ratedate: '2024-01-02',
        buyingrate: '1140.0',
        centralrate: '1140.5',
        sellingrate: '1141.0',
      },
      {
        currency: 'WAUA',
        ratedate: '2024-01-02',
        buyingrate: '1',
        centralrate: '1',
        sellingrate: '1',
      },
    ]);
    const result = parseCbnJson(text, source('cbn'));
    assert.deepEqual(rows(result), [['GBP', '2024-01-01T23:00:00.000Z', 1 / 1140.5]]);
    assert.deepEqual(result.dropReasons, ["unknown currency name 'WAUA'"]);
  });

  test('float_rates: a feed for another currency is refused', () => {
    const usd = JSON.stringify({
      eur: { code: 'EUR', rate: 0.92, date: 'Tue, 2 Jan 2024 11:55:01 GMT' },
    });
    assert.deepEqual(rows(parseFloatRatesJson(usd, source('float_rates'))), [
      ['EUR', '2024-01-02T00:00:00.000Z', 0.92],
    ]);
    const eur = JSON.stringify({
      usd: { code: 'USD', rate: 1.09, date: 'Tue, 2 Jan 2024 11:55:01 GMT' },
    });
    assert.throws(() => parseFloatRatesJson(eur, source('float_rates')), /not the USD feed/);
  });

  test('boc, nbp, cnb, fred: the direction and unit of each quote', () => {
    assert.deepEqual(
      rows(
        parseBocJson(
          JSON.stringify({
            observations: [{ d: '2024-01-02', FXUSDCAD: { v: '1.3316' }, FXVNDCAD: {} }],
          }),
          source('boc'),
        ),
      ),
      [['USD', '2024-01-02T21:30:00.000Z', 1 / 1.3316]],
    );
    assert.deepEqual(
      rows(
        parseNbpTables(
          JSON.stringify([{ effectiveDate: '2024-01-02', rates: [{ code: 'USD', mid: 3.9432 }] }]),
          source('nbp'),
        ),
      ),
      [['USD', '2024-01-02T11:00:00.000Z', 1 / 3.9432]],
    );
    assert.deepEqual(rows(parseNbpGold('[{"data":"2024-01-02","cena":260.0}]', source('nbp'))), [
      ['XAU', '2024-01-02T11:00:00.000Z', 1 / (260 * 31.1034768)],
    ]);
    assert.deepEqual(
      rows(
        parseCnbJson(
          JSON.stringify({
            rates: [{ currencyCode: 'IDR', amount: 1000, validFor: '2024-01-02', rate: 1.445 }],
          }),
          source('cnb'),
        ),
      ),
      [['IDR', '2024-01-02T13:30:00.000Z', 1000 / 1.445]],
    );
    const fred = (value: string) =>
      JSON.stringify({ observations: [{ date: '2024-01-02', value }] });
    assert.deepEqual(rows(parseFredJson(fred('1.0956'), 'DEXUSEU', source('fred'))), [
      ['EUR', '2024-01-02T17:00:00.000Z', 1 / 1.0956],
    ]);
    assert.deepEqual(rows(parseFredJson(fred('141.8'), 'DEXJPUS', source('fred'))), [
      ['JPY', '2024-01-02T17:00:00.000Z', 141.8],
    ]);
    assert.equal(parseFredJson(fred('.'), 'DEXJPUS', source('fred')).observations.length, 0);
  });
});

describe('fetching', () => {
  test('the origin override replaces scheme, host and port and keeps path and query byte for byte', () => {
    const http = new SourceHttp('bcb', undefined, 'http://127.0.0.1:9000');
    const url = bcbUrl('EUR', { from: '2024-01-02', to: '2024-01-05' });
    assert.equal(
      http.target(url),
      `http://127.0.0.1:9000${url.slice('https://olinda.bcb.gov.br'.length)}`,
    );
    assert.equal(new SourceHttp('ecb').target(url), url);
  });

  test('bodies: charset from Content-Type or the source default; wrong or invalid ones refused', () => {
    const utf8 = new TextEncoder().encode('Долар');
    assert.equal(decodeBody('u', utf8, 'application/json; charset=UTF-8'), 'Долар');
    assert.equal(decodeBody('u', utf8, 'application/json'), 'Долар');
    assert.throws(
      () => decodeBody('u', utf8, 'text/csv; charset=iso-8859-1'),
      /charset iso-8859-1, expected utf-8/,
    );
    assert.throws(() => decodeBody('u', new Uint8Array([0xc4, 0xee]), null), /not valid utf-8/);
    assert.throws(() => decodeBody('u', new Uint8Array(0), null), /empty response body/);
    // A UTF-8 byte-order mark (the RBA sends one) is not part of the text.
    assert.equal(decodeBody('u', new Uint8Array([0xef, 0xbb, 0xbf, 0x41]), null), 'A');
  });

  test('windows split into yearly, fixed-size and monthly requests', () => {
    assert.deepEqual(yearChunks({ from: '2023-12-30', to: '2025-01-02' }), [
      { from: '2023-12-30', to: '2023-12-31' },
      { from: '2024-01-01', to: '2024-12-31' },
      { from: '2025-01-01', to: '2025-01-02' },
    ]);
    assert.deepEqual(windowChunks({ from: '2024-01-01', to: '2024-04-05' }, 93), [
      { from: '2024-01-01', to: '2024-04-02' },
      { from: '2024-04-03', to: '2024-04-05' },
    ]);
    assert.deepEqual(monthEnds({ from: '2023-12-15', to: '2024-02-01' }), [
      '2023-12-31',
      '2024-01-31',
      '2024-02-29',
    ]);
  });
});

describe('scheduling', () => {
  const ecb = source('ecb');

  test('polls every half hour across the publication window, weekdays only for a weekday publisher', () => {
    // ECB window 14:00-16:30 UTC on weekdays.
    assert.equal(
      nextPollAfter(new Date('2024-01-02T09:00:00Z'), ecb.publishWindowUtc).toISOString(),
      '2024-01-02T14:00:00.000Z',
    );
    assert.equal(
      nextPollAfter(new Date('2024-01-02T14:00:00Z'), ecb.publishWindowUtc).toISOString(),
      '2024-01-02T14:30:00.000Z',
    );
    assert.equal(
      nextPollAfter(new Date('2024-01-02T16:31:00Z'), ecb.publishWindowUtc).toISOString(),
      '2024-01-03T14:00:00.000Z',
    );
    // Friday evening: next Monday.
    assert.equal(
      nextPollAfter(new Date('2024-01-05T17:00:00Z'), ecb.publishWindowUtc).toISOString(),
      '2024-01-08T14:00:00.000Z',
    );
    // The NBU publishes every day.
    assert.equal(
      nextPollAfter(new Date('2024-01-06T13:00:00Z'), source('nbu').publishWindowUtc).toISOString(),
      '2024-01-07T10:00:00.000Z',
    );
  });

  test('a first run backfills; later runs continue from the last stored date, or from a gap a failure left', () => {
    const today = '2026-03-19';
    assert.deepEqual(plannedWindow(ecb, undefined, null, { today }), {
      window: { from: '1999-01-04', to: today },
      continuous: true,
    });
    const done = {
      source: 'ecb',
      lastAttempt: null,
      lastSuccess: null,
      lastError: null,
      completeThrough: '2026-03-18',
      lastRunStored: 0,
      lastRunDropped: 0,
    };
    assert.deepEqual(plannedWindow(ecb, done, '2026-03-17', { today }).window, {
      from: '2026-03-17',
      to: today,
    });
    // Stored data runs ahead of the last complete run (it failed midway): resume at the gap.
    assert.deepEqual(plannedWindow(ecb, done, '2026-03-19', { today }).window, {
      from: '2026-03-18',
      to: today,
    });
    // Explicit dates win; a window that starts later than the resume point leaves a gap.
    assert.deepEqual(
      plannedWindow(ecb, done, '2026-03-17', { today, from: '2026-03-18', to: '2026-03-18' }),
      {
        window: { from: '2026-03-18', to: '2026-03-18' },
        continuous: false,
      },
    );
  });
});
