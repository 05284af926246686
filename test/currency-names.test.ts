import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isCurrencyCode } from '../src/sources/currencies.js';
import {
  forEachEngine,
  getJson,
  observation,
  startService,
  type TestService,
} from './support/harness.js';

// Codes publishers carry that are not everyday money: metals, the SDR, withdrawn currencies.
const CODES = ['XAU', 'XAG', 'XPT', 'XPD', 'XDR', 'XOF', 'XAF', 'CYP', 'ZWN', 'VED', 'JPY'];

forEachEngine((engine) => {
  describe('currency names on the currencies endpoint', () => {
    let service: TestService;
    before(async () => {
      service = await startService({}, { engine });
      await service.store.writeObservations(
        CODES.map((code) => observation('imf', code, '2024-03-19T16:00:00Z', 2)),
      );
    });
    after(() => service.close());

    test('json: each symbol has an English name beside its sources', async () => {
      const { body } = await getJson(
        service.app,
        `/v1/exchangerate/currencies?sources=imf&symbols=${CODES.join(',')},USD`,
      );
      const names = Object.fromEntries(
        Object.entries(body.symbols as Record<string, { name: string; sources: string[] }>).map(
          ([code, entry]) => [code, entry.name],
        ),
      );
      assert.deepEqual(names, {
        CYP: 'Cypriot Pound',
        JPY: 'Japanese Yen',
        USD: 'US Dollar',
        VED: 'Venezuelan Bolívar Digital',
        XAF: 'Central African CFA Franc',
        XAG: 'Silver (troy ounce)',
        XAU: 'Gold (troy ounce)',
        XDR: 'Special drawing rights',
        XOF: 'West African CFA Franc',
        XPD: 'Palladium (troy ounce)',
        XPT: 'Platinum (troy ounce)',
        ZWN: 'Zimbabwean Dollar (2006–2008)',
      });
      assert.deepEqual(Object.keys(body.symbols.XOF), ['name', 'sources']);
      assert.deepEqual(body.symbols.XOF.sources, ['imf']);
    });

    test('every symbol listed has a name of its own, not its code', async () => {
      const { body } = await getJson(service.app, '/v1/currencies?sources=*');
      const entries = Object.entries(body.symbols as Record<string, { name: string }>);
      assert.ok(entries.length > 80);
      for (const [code, { name }] of entries) {
        assert.ok(isCurrencyCode(code), code);
        assert.notEqual(name, code);
        assert.match(name, /^[A-Z]/, code);
      }
    });

    test('csv keeps its two columns', async () => {
      const response = await service.app.inject(
        '/v1/currencies?sources=imf&symbols=XAU&format=csv',
      );
      assert.equal(response.body, 'symbol,sources\r\nXAU,imf\r\n');
    });
  });
});
