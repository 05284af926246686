import assert from 'node:assert/strict';
import { SOURCES } from '../src/sources/registry.js';
import { after, before, describe, test } from 'node:test';
import {
  forEachEngine,
  getJson,
  observation,
  startService,
  type TestService,
} from './support/harness.js';

forEachEngine((engine) => {
  describe('currencies and sources', () => {
    let service: TestService;
    before(async () => {
      service = await startService({}, { engine });
      await service.store.writeObservations([
        observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.0863),
        observation('ecb', 'CHF', '2024-03-19T15:00:00Z', 0.96),
        observation('imf', 'EUR', '2024-03-19T16:00:00Z', 0.92),
        observation('imf', 'CHF', '2024-03-19T16:00:00Z', 0.88),
      ]);
    });
    after(() => service.close());

    test('currencies: symbols A-Z with their sources in requested order; relative currencies count', async () => {
      const { body } = await getJson(service.app, '/v1/exchangerate/currencies?sources=imf,ecb');
      assert.deepEqual(body, {
        status: 'success',
        num_symbols: 3,
        symbols: {
          CHF: { name: 'Swiss Franc', sources: ['imf', 'ecb'] },
          EUR: { name: 'Euro', sources: ['imf', 'ecb'] },
          USD: { name: 'US Dollar', sources: ['imf', 'ecb'] },
        },
      });
      const reordered = await getJson(service.app, '/v1/currencies?sources=ecb,imf&symbols=CHF');
      assert.deepEqual(reordered.body.symbols, {
        CHF: { name: 'Swiss Franc', sources: ['ecb', 'imf'] },
      });
    });

    test("currencies: a currency only from left-out sources is omitted; defaults are SPEC.md's list, * is every source", async () => {
      const onlyEcb = await getJson(service.app, '/v1/currencies?sources=ecb');
      assert.deepEqual(Object.keys(onlyEcb.body.symbols), ['CHF', 'EUR', 'USD']);
      const defaults = await getJson(service.app, '/v1/currencies');
      // Sources with no data yet still provide their relative currency.
      assert.deepEqual(defaults.body.symbols.NGN, { name: 'Nigerian Naira', sources: ['cbn'] });
      assert.deepEqual(defaults.body.symbols.USD.sources, ['imf', 'ecb', 'float_rates']);
      // Publishers beyond SPEC.md's list answer when named, or with sources=*.
      const every = await getJson(service.app, '/v1/currencies?sources=*');
      // ecb observed USD; every publisher quoting against USD provides it too, by precedence.
      assert.deepEqual(every.body.symbols.USD, {
        name: 'US Dollar',
        sources: SOURCES.filter((s) => s.key === 'ecb' || s.relativeCurrency === 'USD').map(
          (s) => s.key,
        ),
      });
      assert.deepEqual(every.body.symbols.USD.sources.slice(0, 3), ['imf', 'ecb', 'float_rates']);
      assert.deepEqual(every.body.symbols.CAD.sources.at(-1), 'boc');
    });

    test('sources: fields of each source in requested order; symbols filter, empty sources omitted', async () => {
      const { body } = await getJson(
        service.app,
        '/v1/exchangerate/sources?sources=ecb,imf,boe&symbols=CHF',
      );
      assert.deepEqual(Object.keys(body.currencies), ['ecb', 'imf']);
      assert.deepEqual(body.currencies.ecb, {
        name: 'European Central Bank, euro reference rates',
        relative_currency: 'EUR',
        url: body.currencies.ecb.url,
        is_dst: true,
        default_precedence: 1,
        num_symbols: 1,
        symbols: ['CHF'],
      });
      assert.match(body.currencies.ecb.url, /^https:\/\/www\.ecb\.europa\.eu\//);
      const all = await getJson(service.app, '/v1/sources?sources=*');
      // SPEC.md's list first, then every other registered publisher by key.
      assert.deepEqual(Object.keys(all.body.currencies).slice(0, 12), [
        'imf',
        'ecb',
        'boe',
        'rba',
        'snb',
        'bnro',
        'boi',
        'nbu',
        'cbr',
        'bcb',
        'cbn',
        'float_rates',
      ]);
      assert.deepEqual(
        Object.keys(all.body.currencies),
        SOURCES.map((s) => s.key),
      );
      const rest = Object.keys(all.body.currencies).slice(12);
      assert.deepEqual(rest, [...rest].sort());
      assert.deepEqual(
        Object.values(all.body.currencies).map((s: any) => s.default_precedence),
        SOURCES.map((_, index) => index),
      );
      assert.deepEqual(all.body.currencies.cbr.is_dst, false);
    });

    test('csv layouts', async () => {
      const currencies = await service.app.inject('/v1/currencies?sources=imf,ecb&format=csv');
      assert.equal(
        currencies.body,
        'symbol,sources\r\nCHF,"imf,ecb"\r\nEUR,"imf,ecb"\r\nUSD,"imf,ecb"\r\n',
      );
      const sources = await service.app.inject('/v1/sources?sources=imf&format=csv');
      assert.equal(
        sources.body,
        'source,name,relative_currency,url,is_dst,default_precedence,num_symbols,symbols\r\n' +
          `imf,"International Monetary Fund, representative rates",USD,https://www.imf.org/external/np/fin/data/rms_mth.aspx,true,0,3,"CHF,EUR,USD"\r\n`,
      );
    });
  });
});
