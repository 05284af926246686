import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as bcp, parseBcpHtml } from '../../src/sources/bcp.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bcp.yml'];

describe('bcp on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bcp', {
      recordings: RECORDINGS,
      from: '2024-01-01',
      to: '2024-12-31',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 25 yearly pages of 2024, each 372 cells: 250 rates and 122 "ND" (no rate that day).
    await assertIngested(run, { stored: 6250, symbols: 25 });
    assert.equal(run.replay.requests.length, 25);
    await assertSpots(run, [
      // USD, row 2, column ENE: 7.281,04. 00:00 in Asunción was 03:00Z in January 2024 (DST)
      {
        date: '2024-01-02',
        base: 'USD',
        symbol: 'PYG',
        rate: '7281.04',
        decimals: 10,
        observationTime: '2024-01-02T03:00:00.000Z',
      },
      // USD, row 2, column JUL: 7.541,08; in July 2024 Asunción was UTC-4
      {
        date: '2024-07-02',
        base: 'USD',
        symbol: 'PYG',
        rate: '7541.08',
        decimals: 10,
        observationTime: '2024-07-02T04:00:00.000Z',
      },
      // XAU, row 1, column FEB: 14.889.462,30 per troy ounce, and USD 7.271,63 that day
      {
        date: '2024-02-01',
        base: 'XAU',
        symbol: 'USD',
        rate: divideDecimals('14889462.3', '7271.63', 8),
        decimals: 8,
        observationTime: '2024-02-01T03:00:00.000Z',
      },
    ]);
  });
});

describe('bcp parser on inline samples', () => {
  const page = (rows: string[], year = '2024', end = '</body></html>\n') =>
    `<!DOCTYPE html><html><body><table><thead><tr><th>PLANILLA DE COTIZACIONES DEL A&Ntilde;O ${year} DE MONEDA YEN</th></tr></thead></table>` +
    '<table><tbody><tr><th>#</th><th>ENE</th></tr>' +
    rows.join('') +
    `</tbody></table>${end}`;
  const grid = (cells: Record<number, string[]>) =>
    Array.from({ length: 31 }, (_, i) => {
      const row = cells[i + 1] ?? Array(12).fill('ND');
      return `<tr><th>${i + 1}</th>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
    });

  test('days by months; thousands dots and decimal commas; ND skipped', () => {
    const extraction = parseBcpHtml(
      page(grid({ 2: ['49,57', 'ND', ...Array(9).fill('ND'), '1.012,71'] })),
      'JPY',
      bcp,
    );
    assert.deepEqual(observationRows(extraction), [
      ['JPY', '2024-01-02T03:00:00.000Z', 1 / 49.57],
      ['JPY', '2024-12-02T03:00:00.000Z', 1 / 1012.71],
    ]);
    assert.equal(extraction.dropped, 0);
  });

  test('a value on a day the month lacks or an unreadable value is dropped and counted', () => {
    const extraction = parseBcpHtml(
      page(
        grid({
          30: ['ND', '7.000,00', ...Array(10).fill('ND')],
          3: ['s/d', ...Array(11).fill('ND')],
        }),
      ),
      'USD',
      bcp,
    );
    assert.equal(extraction.observations.length, 0);
    assert.equal(extraction.dropped, 2);
  });

  test('a page cut short, without its title or with rows missing is refused', () => {
    assert.throws(() => parseBcpHtml(page(grid({}), '2024', '</tbody>'), 'USD', bcp), /cut short/);
    assert.throws(() => parseBcpHtml('<html><body>Error</body></html>', 'USD', bcp), /PLANILLA/);
    assert.throws(() => parseBcpHtml(page(grid({}).slice(0, 20)), 'USD', bcp), /31 days/);
  });
});
