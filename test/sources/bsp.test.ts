import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import {
  publisher as bsp,
  parseBspBulletin,
  parseBspList,
  pdfTextLines,
} from '../../src/sources/bsp.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bsp.yml'];

describe('bsp on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bsp', {
      recordings: RECORDINGS,
      from: '2026-05-27',
      to: '2026-05-29',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // The list (it reaches back to January, so no older page), then the window's two bulletins
    assert.deepEqual(run.replay.requests, [
      "/_api/web/lists/getByTitle('RERB')/items?$expand=AttachmentFiles&$orderby=Id%20desc&$select=Id,Title,AttachmentFiles&$top=100",
      '/Lists/RERB/Attachments/2281/28May2026.pdf',
      '/Lists/RERB/Attachments/2282/29May2026.pdf',
    ]);
    // 2 bulletins x 32 rows; the Kuwaiti dinar is "N/A" in both (2 dropped)
    await assertIngested(run, { stored: 62, symbols: 31, dropped: 2 });
    await assertSpots(run, [
      // 28 May 2026, UNITED STATES DOLLAR USD, PHIL.PESO EQUIVALENT 61.5820. 00:00 in Manila
      // (+08 all year) is 16:00Z the day before, so the UTC date 27 May holds it.
      {
        date: '2026-05-27',
        base: 'USD',
        symbol: 'PHP',
        rate: '61.582',
        decimals: 12,
        observationTime: '2026-05-27T16:00:00.000Z',
      },
      // 29 May 2026, JAPAN YEN JPY 0.3872
      {
        date: '2026-05-29',
        base: 'JPY',
        symbol: 'PHP',
        rate: '0.3872',
        decimals: 12,
        observationTime: '2026-05-28T16:00:00.000Z',
      },
      // 29 May 2026, EURO 71.8392 against U.S. DOLLAR 61.6540
      {
        date: '2026-05-29',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('71.8392', '61.654', 10),
        decimals: 10,
        observationTime: '2026-05-28T16:00:00.000Z',
      },
    ]);
  });
});

/** A one-page PDF showing `lines` (each a list of strings at x positions) as a bulletin does. */
function pdf(lines: string[][], options: { compress?: boolean } = {}): Uint8Array {
  const content = lines
    .map(
      (line, row) =>
        'BT\n/TT0 1 Tf\n' +
        line
          .map(
            (text, column) =>
              `9 0 0 9 ${20 + column * 80} ${780 - row * 13} Tm\n[(${text.replace(/[()\\]/g, '\\$&')})]TJ\n`,
          )
          .join('') +
        'ET\n',
    )
    .join('');
  const data = options.compress
    ? deflateSync(Buffer.from(content, 'latin1'))
    : Buffer.from(content, 'latin1');
  const filter = options.compress ? '/Filter/FlateDecode' : '';
  return new Uint8Array(
    Buffer.concat([
      Buffer.from(
        '%PDF-1.6\n1 0 obj\n<</Type/Catalog/Pages 2 0 R>>\nendobj\n' +
          '2 0 obj\n<</Type/Pages/Kids[3 0 R]/Count 1>>\nendobj\n' +
          '3 0 obj\n<</Contents[4 0 R]/Parent 2 0 R/Type/Page>>\nendobj\n' +
          `4 0 obj\n<<${filter}/Length ${data.length}>>stream\n`,
        'latin1',
      ),
      data,
      Buffer.from('\nendstream\nendobj\ntrailer\n<</Root 1 0 R>>\n%%EOF\n', 'latin1'),
    ]),
  );
}

const bulletin = (rows: string[][]) => [
  ['REFERENCE EXCHANGE RATE BULLETIN'],
  ['28 May 2026'],
  ['EURO', 'U.S.DOLLAR', 'PHIL.PESO'],
  ...rows,
  ['BSP Reference Rate:', 'PHP', '61.550'],
];

describe('bsp parser on inline samples', () => {
  test('the peso column, one unit each; N/A dropped; lines under the table left out', () => {
    const bytes = pdf(
      bulletin([
        ['1', 'UNITED STATES', 'DOLLAR', 'USD', '0.859771', '1.000000', '61.5820'],
        ['13', 'INDONESIA', 'RUPIAH', 'IDR', '0.000048', '0.000056', '0.0034'],
        ['10', 'KUWAIT', 'DINAR', 'KWD', 'N/A', 'N/A', 'N/A'],
      ]),
      { compress: true },
    );
    const result = parseBspBulletin(bytes, bsp);
    assert.equal(result.date, '2026-05-28');
    assert.deepEqual(observationRows(result), [
      ['USD', '2026-05-27T16:00:00.000Z', 1 / 61.582],
      ['IDR', '2026-05-27T16:00:00.000Z', 1 / 0.0034],
    ]);
    assert.equal(result.dropped, 1);
  });

  test('text is read from uncompressed streams and escaped strings too', () => {
    assert.deepEqual(pdfTextLines(pdf([['A (B)', 'C\\D']])), [['A (B)', 'C\\D']]);
  });

  test('a cut-short file, another document or a bulletin without rows is refused', () => {
    const bytes = pdf(bulletin([['1', 'UNITED STATES', 'DOLLAR', 'USD', '0.86', '1.0', '61.58']]));
    assert.throws(() => parseBspBulletin(bytes.subarray(0, bytes.length - 40), bsp), /cut short/);
    assert.throws(
      () => parseBspBulletin(new TextEncoder().encode('<html></html>'), bsp),
      /not a PDF/,
    );
    assert.throws(() => parseBspBulletin(pdf([['Annual Report 2025']]), bsp), /not a Reference/);
    assert.throws(() => parseBspBulletin(pdf(bulletin([])), bsp), /no rows of rates/);
  });

  test('the list: bulletin dates from the titles, PDF addresses, the next page', () => {
    const text = JSON.stringify({
      d: {
        results: [
          {
            Title: '28May2026',
            AttachmentFiles: {
              results: [{ ServerRelativeUrl: '/Lists/RERB/Attachments/2281/28May2026.pdf' }],
            },
          },
          { Title: 'Notice', AttachmentFiles: { results: [] } },
        ],
        __next: 'https://www.bsp.gov.ph/_api/web/lists/next',
      },
    });
    assert.deepEqual(parseBspList(text), {
      bulletins: [
        {
          date: '2026-05-28',
          url: 'https://www.bsp.gov.ph/Lists/RERB/Attachments/2281/28May2026.pdf',
        },
      ],
      next: 'https://www.bsp.gov.ph/_api/web/lists/next',
    });
    assert.throws(() => parseBspList(text.slice(0, 50)), /not valid JSON/);
  });
});
