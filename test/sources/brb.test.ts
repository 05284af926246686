import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import {
  publisher as brb,
  brbListUrl,
  parseBrbList,
  parseBrbSheet,
  pdfTextLines,
} from '../../src/sources/brb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['brb.yml'];

describe('brb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('brb', {
      recordings: RECORDINGS,
      from: '2026-05-20',
      to: '2026-05-22',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // The list (its first page reaches back to 04-05-2026), then the sheets of 20, 21 and 22
    // May 2026: 19 currencies each (the SDR, DTS, as XDR); nothing dropped.
    await assertIngested(run, { stored: 57, symbols: 19 });
    assert.equal(run.report.requests, 4);
    // No fixing time is documented: 00:00 Bujumbura is 22:00Z the day before.
    await assertSpots(run, [
      // 22 May: "1 Dollar USA | 2966.4371 | 2990.3600 | 3014.2829", the daily average
      {
        date: '2026-05-22',
        base: 'USD',
        symbol: 'BIF',
        rate: '2990.36',
        decimals: 10,
        observationTime: '2026-05-21T22:00:00.000Z',
      },
      // 22 May: "1 Euro | ... | 3473.2015": euros per dollar
      {
        date: '2026-05-22',
        base: 'USD',
        symbol: 'EUR',
        rate: divideDecimals('2990.36', '3473.2015', 10),
        decimals: 10,
        observationTime: '2026-05-21T22:00:00.000Z',
      },
      // 20 May, printed with decimal commas: "1 Euro | 3440,0243 | 3467,7664 | 3495,5085"
      {
        date: '2026-05-19',
        base: 'EUR',
        symbol: 'BIF',
        rate: '3467.7664',
        decimals: 10,
        observationTime: '2026-05-19T22:00:00.000Z',
      },
    ]);
  });
});

/** A one-page PDF whose content stream shows `texts` at (x, y), compressed as publishers do. */
function pdf(texts: [number, number, string][], options: { cut?: boolean } = {}): Uint8Array {
  const content = texts
    .map(([x, y, text]) => `BT\n/F1 11 Tf\n1 0 0 1 ${x} ${y} Tm\n[(${text})] TJ\nET\n`)
    .join('');
  const stream = deflateSync(Buffer.from(content, 'latin1'));
  const file = Buffer.concat([
    Buffer.from('%PDF-1.5\r\n1 0 obj\r\n<</Type/Catalog/Pages 2 0 R>>\r\nendobj\r\n'),
    Buffer.from(`5 0 obj\r\n<</Filter/FlateDecode/Length ${stream.length}>>\r\nstream\r\n`),
    stream,
    Buffer.from('\r\nendstream\r\nendobj\r\ntrailer\r\n<</Root 1 0 R>>\r\n%%EOF'),
  ]);
  return new Uint8Array(options.cut ? file.subarray(0, file.length - 40) : file);
}

describe('brb parser on inline samples', () => {
  test('the list: sheets by the date in their names; later pages by number', () => {
    const list = parseBrbList(
      '<div class="view-id-affichagetoustauxchange">' +
        '<a href="/sites/default/files/2026-05/Cours%20de%20change%20du%2022-05-2026.pdf">x</a>' +
        '<a href="/sites/default/files/rapport-01-01-2026.pdf">y</a></div>',
    );
    assert.deepEqual(list.sheets, [
      {
        date: '2026-05-22',
        url: 'https://www.brb.bi/sites/default/files/2026-05/Cours%20de%20change%20du%2022-05-2026.pdf',
      },
    ]);
    assert.equal(brbListUrl(2), 'https://www.brb.bi/en/affichagetoustauxchange?page=2');
    assert.throws(() => parseBrbList('<html><body>Access denied</body></html>'), /not the list/);
  });

  test("a PDF's text, line by line, pieces left to right", () => {
    const lines = pdfTextLines(
      pdf([
        [60, 700, 'EN DATE DU 2 JANVIER 2025'],
        [250, 600, '2155,4820'],
        [53, 600, '1 Dollar Canadien'],
        [350, 600.3, '2172,8650'],
        [450, 600, 'Vendeur \\(BIF\\)'],
      ]),
    );
    assert.deepEqual(lines, [
      'EN DATE DU 2 JANVIER 2025',
      '1 Dollar Canadien | 2155,4820 | 2172,8650 | Vendeur (BIF)',
    ]);
    assert.throws(() => pdfTextLines(pdf([[1, 1, 'x']], { cut: true })), /cut short/);
    assert.throws(() => pdfTextLines(new TextEncoder().encode('<html></html>')), /not a PDF/);
  });

  test('the daily average, BIF per the units named; commas or points; unknown names dropped', () => {
    const header = 'MONNAIES ETRANGERES | Acheteur | Cours moyen jour | Vendeur';
    const extraction = parseBrbSheet(
      [
        'EN DATE DU 3 FÉVRIER 2025',
        header,
        '1 Dollar USA | 2950,1 | 2960,5 | 2970,9',
        '100 Yen Japonais* | 1890.1 | 1900.2 | 1910.3',
        '1 Peso Atlantique | 1 | 2 | 3',
        '* Monnaies non admises au change manuel',
      ],
      brb,
    );
    assert.deepEqual(observationRows(extraction), [
      ['USD', '2025-02-02T22:00:00.000Z', 1 / 2960.5],
      ['JPY', '2025-02-02T22:00:00.000Z', 1 / 19.002],
    ]);
    assert.equal(extraction.dropped, 1);
    assert.throws(() => parseBrbSheet([header, '1 Euro | 1 | 2 | 3'], brb), /no date/);
    assert.throws(() => parseBrbSheet(['EN DATE DU 3 MARS 2025', header], brb), /no rows/);
  });
});
