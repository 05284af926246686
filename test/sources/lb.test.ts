import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as lb, parseLbXml } from '../../src/sources/lb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['lb.yml'];

describe('lb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    // The window runs into 2015, when the euro had replaced the litas: nothing is requested there.
    run = await replayPublisher('lb', {
      recordings: RECORDINGS,
      from: '2014-12-29',
      to: '2015-01-05',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 88 currencies on each of the last three litas days.
    await assertIngested(run, { stored: 264, symbols: 88 });
    assert.deepEqual(run.replay.requests, [
      '/webservices/FxRates/FxRates.asmx/getFxRates?dt=2014-12-29&tp=LT',
      '/webservices/FxRates/FxRates.asmx/getFxRates?dt=2014-12-30&tp=LT',
      '/webservices/FxRates/FxRates.asmx/getFxRates?dt=2014-12-31&tp=LT',
    ]);
    // Midnight in Vilnius in winter is 22:00Z the day before.
    await assertSpots(run, [
      // 2014-12-29: LTL 2.4689 for ALL 100
      {
        date: '2014-12-28',
        base: 'ALL',
        symbol: 'LTL',
        rate: '0.024689',
        decimals: 12,
        observationTime: '2014-12-28T22:00:00.000Z',
      },
      // LTL 2.2918 for AUD 1
      {
        date: '2014-12-28',
        base: 'AUD',
        symbol: 'LTL',
        rate: '2.2918',
        decimals: 12,
        observationTime: '2014-12-28T22:00:00.000Z',
      },
      // AED: LTL 7.6881 for 10 against AUD: LTL 2.2918 for 1
      {
        date: '2014-12-28',
        base: 'AUD',
        symbol: 'AED',
        rate: divideDecimals('2.2918', '0.76881', 10),
        decimals: 10,
        observationTime: '2014-12-28T22:00:00.000Z',
      },
    ]);
  });
});

describe('lb parser on inline samples', () => {
  const rate = (date: string, ltl: string, code: string, units: string) =>
    `<FxRate><Tp>LT</Tp><Dt>${date}</Dt><CcyAmt><Ccy>LTL</Ccy><Amt>${ltl}</Amt></CcyAmt>` +
    `<CcyAmt><Ccy>${code}</Ccy><Amt>${units}</Amt></CcyAmt></FxRate>`;
  const document = (body: string) =>
    `<?xml version="1.0" encoding="utf-8"?>\n<FxRates xmlns="http://www.lb.lt/WebServices/FxRates">${body}</FxRates>\n`;

  test('LTL per n units by moving the decimal point; summer and winter times', () => {
    const text = document(
      rate('2014-07-01', '3.4528', 'EUR', '1') +
        rate('2014-01-02', '2.5114', 'JPY', '100') +
        rate('2014-01-02', '', 'USD', '1') +
        '<FxRate><Tp>EU</Tp><Dt>2014-01-02</Dt><CcyAmt><Ccy>EUR</Ccy><Amt>1</Amt></CcyAmt>' +
        '<CcyAmt><Ccy>USD</Ccy><Amt>1.37</Amt></CcyAmt></FxRate>',
    );
    const result = parseLbXml(text, lb);
    assert.deepEqual(observationRows(result), [
      ['EUR', '2014-06-30T21:00:00.000Z', 1 / 3.4528], // summer: 00:00 EEST
      ['JPY', '2014-01-01T22:00:00.000Z', 1 / 0.025114], // winter: 00:00 EET
    ]);
    assert.equal(result.dropped, 2);
    assert.match(result.dropReasons.join(' | '), /USD.*not a positive number.*EUR\/USD is not/);
  });

  test('cut-short bodies and the service refusals fail', () => {
    const text = document(rate('2014-01-02', '2.5114', 'JPY', '100'));
    assert.throws(() => parseLbXml(text.slice(0, -12), lb), /cut short/);
    assert.throws(
      () =>
        parseLbXml(document('<OprlErr><Err><Cd>1</Cd><Desc>Wrong date</Desc></Err></OprlErr>'), lb),
      /refused the request: 1 +Wrong date/,
    );
  });
});
