import {
  ApiError,
  getJson,
  type CurrencyList,
  type RatesOfDate,
  type RatesOfRange,
  type SourceList,
  type SourceListing,
  type StatusAnswer,
} from './api.js';
import { HistoryChart, type HistoryPoint } from './chart.js';
import { MAX_DECIMAL_DIGITS } from '../exact-decimal.js';
import {
  amountParam,
  currencyName,
  groupThousands,
  monthsBefore,
  readAmount,
  readableDecimal,
  todayUtc,
  utcDate,
  utcTime,
} from './format.js';

type CurrencySelect = 'from' | 'to' | 'chart-from' | 'chart-to' | 'base';
const CURRENCY_SELECTS: CurrencySelect[] = ['from', 'to', 'chart-from', 'chart-to', 'base'];

const RANGE_MONTHS: Record<string, number> = { '1M': 1, '1Y': 12, '5Y': 60 };
/** Sources shown in the status table before "show all": those with something to say. */
const ACTIVE_STATES = new Set(['ok', 'failing', 'running']);

const $ = <T extends HTMLElement>(id: string): T => {
  const node = document.getElementById(id);
  if (!node) throw new Error(`missing #${id}`);
  return node as T;
};

interface SourceChoice {
  key: string;
  name: string;
  relativeCurrency: string;
  used: boolean;
}

const state = {
  names: new Map<string, string>(),
  sourceNames: new Map<string, string>(),
  /** Every registered source, in the order the picker shows; null until loaded. */
  sources: [] as SourceChoice[],
  defaultSources: [] as string[],
  /**
   * The currency chosen in each select, by its id: kept when the sources in use do not quote it
   * (the select then shows another), and shown again once they do.
   */
  chosen: {
    from: 'EUR',
    to: 'USD',
    'chart-from': 'EUR',
    'chart-to': 'USD',
    base: 'USD',
  } as Record<CurrencySelect, string>,
  /** The date the service calls today (its latest answer's date). */
  today: todayUtc(),
  /**
   * The date the page shows first: today, or the newest date held when today has no rates
   * (a service that is not fetching, with data that ends earlier).
   */
  shownDate: todayUtc(),
  /** Whether the service fetches new rates; null until its status has answered. */
  ingesting: null as boolean | null,
  showAllStatus: false,
};

function sourcesParam(): string | undefined {
  const used = state.sources.filter((source) => source.used).map((source) => source.key);
  if (used.length === 0 || used.join(',') === state.defaultSources.join(',')) return undefined;
  return used.join(',');
}

/**
 * Requests of one section, of which only the latest counts: each call starts one and gives a
 * test of whether it is still the latest, so that an answer to an earlier choice that comes
 * back last is dropped.
 */
function latestOnly(): () => () => boolean {
  let latest = 0;
  return () => {
    const mine = ++latest;
    return () => mine === latest;
  };
}

function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : `Something went wrong: ${String(error)}`;
}

function setMessage(id: string, text: string, kind: 'error' | 'empty' | '' = 'error'): void {
  const node = $(id);
  node.textContent = text;
  node.dataset.kind = kind;
  node.hidden = text === '';
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: { text?: string; className?: string; title?: string } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.text !== undefined) node.textContent = options.text;
  if (options.className) node.className = options.className;
  if (options.title) node.title = options.title;
  node.append(...children);
  return node;
}

function cell(label: string, ...children: (Node | string)[]): HTMLTableCellElement {
  const td = element('td', {}, element('div', { className: 'cell' }, ...children));
  td.dataset.label = label;
  return td;
}

function describeCurrency(code: string): string {
  const name = state.names.get(code);
  return name ? `${code} · ${name}` : code;
}

// Currencies ------------------------------------------------------------------------------

const currenciesRequests = latestOnly();

async function loadCurrencies(): Promise<void> {
  const current = currenciesRequests();
  const { body } = await getJson<CurrencyList>('/v1/exchangerate/currencies', {
    sources: sourcesParam(),
  });
  // A later choice of sources has asked again: its list is the one to show.
  if (!current()) return;
  const codes = Object.keys(body.symbols).sort();
  state.names.clear();
  for (const code of codes) state.names.set(code, currencyName(code, body.symbols[code]?.name));
  for (const id of CURRENCY_SELECTS) {
    const select = $<HTMLSelectElement>(id);
    const chosen = state.chosen[id];
    select.replaceChildren(
      ...codes.map((code) => {
        const option = element('option', { text: describeCurrency(code) });
        option.value = code;
        return option;
      }),
    );
    select.value = codes.includes(chosen) ? chosen : (codes[0] ?? '');
  }
}

// Converter -------------------------------------------------------------------------------

const convertRequests = latestOnly();

/**
 * The date in a date field: an emptied field goes back to the page's date (and shows it); one
 * the browser cannot read (a half-typed or impossible date) or past the year 9999 is null, and
 * the field is marked invalid, never silently replaced.
 */
function chosenDate(id: string): string | null {
  const input = $<HTMLInputElement>(id);
  if (!input.validity.badInput && input.value === '') input.value = state.shownDate;
  const valid = !input.validity.badInput && /^\d{4}-\d{2}-\d{2}$/.test(input.value);
  if (valid) input.removeAttribute('aria-invalid');
  else input.setAttribute('aria-invalid', 'true');
  return valid ? input.value : null;
}

const INVALID_DATE = 'Enter a valid date (the year, month and day of a calendar date).';

/** Conversions are asked of the service to this many decimals; fewer means the answer is exact. */
const CONVERSION_DECIMALS = 30;

async function convert(): Promise<void> {
  const current = convertRequests();
  const result = $('convert-result');
  const amount = readAmount($<HTMLInputElement>('amount').value);
  const from = $<HTMLSelectElement>('from').value;
  const to = $<HTMLSelectElement>('to').value;
  const date = chosenDate('convert-date');
  result.dataset.kind = 'error';
  if (!amount) {
    result.textContent = 'Enter a positive amount, like 100 or 12.50.';
    $('amount').setAttribute('aria-invalid', 'true');
    return;
  }
  const sent = amountParam(amount);
  if (!sent) {
    result.textContent = `Enter an amount of at most ${MAX_DECIMAL_DIGITS} digits.`;
    $('amount').setAttribute('aria-invalid', 'true');
    return;
  }
  $('amount').removeAttribute('aria-invalid');
  if (!date) {
    result.textContent = INVALID_DATE;
    return;
  }
  if (!from || !to) {
    result.textContent = 'The service holds no currencies yet.';
    return;
  }
  result.dataset.kind = 'busy';
  result.textContent = 'Converting…';
  if (from === to) {
    // The service lists no currency against itself: one unit is one unit.
    result.dataset.kind = 'answer';
    result.replaceChildren(
      answerLine(amount, from, amountText(amount), to),
      element('p', { className: 'rate', text: `1 ${from} = 1 ${to}: the same currency` }),
    );
    return;
  }
  try {
    const path = date === state.today ? '/v1/exchangerate/latest' : `/v1/exchangerate/${date}`;
    const params = { base: from, symbols: to, sources: sourcesParam() };
    // The rate of one unit, and the amount converted by the service: the exact product of the
    // amount and the exact quotient of the published figures, rounded once.
    const [{ body, notice }, converted] = await Promise.all([
      getJson<RatesOfDate>(path, params),
      getJson<RatesOfDate>(path, {
        ...params,
        amount: sent,
        decimals: String(CONVERSION_DECIMALS),
      }),
    ]);
    if (!current()) return;
    const entry = body.rates[to];
    const total = converted.body.rates[to]?.rate;
    if (!entry || total === undefined) {
      result.dataset.kind = 'empty';
      result.textContent = `No ${from} to ${to} rate is held for ${body.date}${
        notice ? ` (${notice})` : ''
      }. Try another date, pair or source.`;
      return;
    }
    const carried = utcDate(entry.observation_time) < body.date;
    const decimals = total.split('.')[1]?.length ?? 0;
    result.dataset.kind = 'answer';
    result.replaceChildren(
      answerLine(amount, from, readableDecimal(total), to),
      element('p', {
        className: 'exact muted',
        text:
          decimals < CONVERSION_DECIMALS
            ? `Exactly ${total} ${to}`
            : `${total} ${to} (to ${CONVERSION_DECIMALS} decimals)`,
      }),
      element('p', { className: 'rate', text: `1 ${from} = ${entry.rate} ${to}` }),
      element('p', {
        className: 'provenance muted',
        text: `Source ${entry.source} (${state.sourceNames.get(entry.source) ?? entry.source}), observed ${utcTime(entry.observation_time)}${
          carried ? `, carried forward to ${body.date}` : ''
        }`,
      }),
      ...(notice ? [element('p', { className: 'notice', text: `Note: ${notice}` })] : []),
    );
  } catch (error) {
    if (!current()) return;
    result.dataset.kind = 'error';
    result.textContent = messageOf(error);
  }
}

/** "1,000 EUR = 1,085.5 USD": the amount as entered, and what it converts to. */
function answerLine(amount: string, from: string, value: string, to: string): HTMLElement {
  return element(
    'p',
    { className: 'answer' },
    element('span', { className: 'from', text: `${amountText(amount)} ${from} =` }),
    element('output', { className: 'value', text: `${value} ${to}` }),
  );
}

/** An amount as entered, its whole part grouped by thousands. */
function amountText(amount: string): string {
  const [whole = '', fraction] = amount.split('.');
  return `${groupThousands(whole)}${fraction === undefined ? '' : `.${fraction}`}`;
}

// Rates table ------------------------------------------------------------------------------

const tableRequests = latestOnly();

async function loadTable(): Promise<void> {
  const current = tableRequests();
  const base = $<HTMLSelectElement>('base').value;
  const date = chosenDate('table-date');
  const tbody = $('rates-table').querySelector('tbody')!;
  setMessage('latest-message', '');
  if (!date) {
    tbody.replaceChildren();
    $('latest-caption').textContent = '';
    setMessage('latest-message', INVALID_DATE);
    return;
  }
  try {
    const path = date === state.today ? '/v1/exchangerate/latest' : `/v1/exchangerate/${date}`;
    const { body } = await getJson<RatesOfDate>(path, { base, sources: sourcesParam() });
    if (!current()) return;
    const codes = Object.keys(body.rates).sort();
    $('latest-caption').textContent =
      codes.length > 0
        ? `How many units of each currency 1 ${base} buys on ${body.date}, ${codes.length} currencies.`
        : '';
    if (codes.length === 0) {
      tbody.replaceChildren();
      setMessage(
        'latest-message',
        `The service holds no rates against ${base || 'this base'} for ${body.date}. ` +
          (state.ingesting === false
            ? 'It is not fetching new rates; try an earlier date (see the publishers below for the dates each holds).'
            : 'It may still be fetching the publishers; see the publishers below.'),
        'empty',
      );
      return;
    }
    tbody.replaceChildren(
      ...codes.map((code) => {
        const entry = body.rates[code]!;
        const observed = utcDate(entry.observation_time);
        const carried = observed < body.date;
        const row = element(
          'tr',
          {},
          cell(
            'Currency',
            element('span', { className: 'code', text: code }),
            element('span', { className: 'name', text: state.names.get(code) ?? '' }),
          ),
          cell('Rate', element('span', { className: 'num', text: entry.rate })),
          cell(
            'Source',
            element('abbr', { text: entry.source, title: state.sourceNames.get(entry.source) }),
          ),
          cell(
            'Observed',
            element('span', { className: 'dates', text: utcTime(entry.observation_time) }),
            ...(carried
              ? [
                  element('span', {
                    className: 'badge carried',
                    text: 'carried forward',
                    title: `The newest rate on or before ${body.date} is from ${observed}`,
                  }),
                ]
              : []),
          ),
        );
        row.dataset.code = code;
        row.dataset.search = `${code} ${state.names.get(code) ?? ''}`.toLowerCase();
        if (carried) row.classList.add('carried');
        return row;
      }),
    );
    filterTable();
  } catch (error) {
    if (!current()) return;
    tbody.replaceChildren();
    $('latest-caption').textContent = '';
    setMessage('latest-message', messageOf(error));
  }
}

function filterTable(): void {
  const needle = $<HTMLInputElement>('table-filter').value.trim().toLowerCase();
  const rows = [...$('rates-table').querySelectorAll<HTMLTableRowElement>('tbody tr')];
  for (const row of rows)
    row.hidden = needle !== '' && !(row.dataset.search ?? '').includes(needle);
  // Said when the filter hides every row; taken back (and only its own message) when not.
  const message = $('latest-message');
  if (rows.length > 0 && rows.every((row) => row.hidden)) {
    setMessage('latest-message', `No currency matches “${needle}”.`, 'empty');
    message.dataset.filter = 'true';
  } else if (message.dataset.filter === 'true') {
    setMessage('latest-message', '');
    message.dataset.filter = 'false';
  }
}

// History chart ----------------------------------------------------------------------------

let chart: HistoryChart | null = null;
const chartRequests = latestOnly();

async function loadChart(): Promise<void> {
  const from = $<HTMLSelectElement>('chart-from').value;
  const to = $<HTMLSelectElement>('chart-to').value;
  const range =
    document.querySelector<HTMLInputElement>('input[name="range"]:checked')?.value ?? '1Y';
  chart ??= new HistoryChart($('chart'), $('chart-readout'));
  const current = chartRequests();
  setMessage('chart-message', '');
  const months = RANGE_MONTHS[range];
  const path =
    months === undefined
      ? // Every date held, with the sources' priority of the other answers (`/all` has its own).
        '/v1/exchangerate/*/*'
      : `/v1/exchangerate/${monthsBefore(state.shownDate, months)}/${state.shownDate}`;
  try {
    const { body } = await getJson<RatesOfRange>(path, {
      base: from,
      symbols: to,
      sources: sourcesParam(),
      aggregation: months === undefined ? 'month' : undefined,
    });
    if (!current()) return;
    const points: HistoryPoint[] = Object.keys(body.rates)
      .sort()
      .flatMap((date) => {
        const entry = body.rates[date]?.[to];
        return entry
          ? [{ date, rate: Number(entry.rate), rateText: entry.rate, source: entry.source }]
          : [];
      });
    const label = `${from} to ${to}`;
    chart.draw(points, label);
    const chartNode = $('chart');
    chartNode.setAttribute(
      'aria-label',
      `${label} history, ${range === 'MAX' ? 'all dates by month' : range}; use the arrow keys to read values`,
    );
    if (points.length === 0) {
      $('chart-caption').textContent = '';
      setMessage(
        'chart-message',
        `No ${from} to ${to} rates are held for this range. Try a longer range or another pair.`,
        'empty',
      );
      return;
    }
    const first = points[0]!;
    const last = points[points.length - 1]!;
    $('chart-caption').textContent =
      `1 ${from} in ${to}, ${first.date} to ${last.date}` +
      `${months === undefined ? ', first rate of each month' : ''}: ${points.length} points, ` +
      `from ${first.rateText} to ${last.rateText}.`;
  } catch (error) {
    if (!current()) return;
    chart.draw([], '');
    $('chart-caption').textContent = '';
    setMessage('chart-message', messageOf(error));
  }
}

// Sources picker ---------------------------------------------------------------------------

async function loadSources(): Promise<void> {
  const [every, defaults] = await Promise.all([
    getJson<SourceList>('/v1/exchangerate/sources', { sources: '*' }),
    getJson<SourceList>('/v1/exchangerate/sources'),
  ]);
  const listing = (key: string, source: SourceListing): SourceChoice => ({
    key,
    name: source.name,
    relativeCurrency: source.relative_currency,
    used: key in defaults.body.currencies,
  });
  state.defaultSources = Object.keys(defaults.body.currencies);
  const all = Object.entries(every.body.currencies).map(([key, source]) => listing(key, source));
  state.sources = [
    ...state.defaultSources.flatMap((key) => all.filter((source) => source.key === key)),
    ...all.filter((source) => !source.used),
  ];
  for (const source of all) state.sourceNames.set(source.key, source.name);
  renderSourcePicker();
}

function renderSourcePicker(focusKey?: string, focusAction?: string): void {
  const list = $('source-list');
  list.replaceChildren(
    ...state.sources.map((source, index) => {
      const id = `source-${source.key}`;
      const checkbox = element('input');
      checkbox.type = 'checkbox';
      checkbox.id = id;
      checkbox.checked = source.used;
      checkbox.dataset.action = 'use';
      checkbox.addEventListener('change', () => {
        source.used = checkbox.checked;
        renderSourcePicker(source.key, 'use');
        sourcesChanged();
      });
      const label = element(
        'label',
        {},
        element('span', { className: 'code', text: source.key }),
        element('span', { className: 'name', text: source.name }),
      );
      label.htmlFor = id;
      const move = (offset: number, action: string): HTMLButtonElement => {
        const button = element('button', {
          text: offset < 0 ? '↑' : '↓',
          className: 'icon',
          title: `${offset < 0 ? 'Move up' : 'Move down'}: ${source.key}`,
        });
        button.type = 'button';
        button.dataset.action = action;
        button.setAttribute('aria-label', `Move ${source.key} ${offset < 0 ? 'up' : 'down'}`);
        const target = index + offset;
        button.disabled = target < 0 || target >= state.sources.length;
        button.addEventListener('click', () => {
          const [moved] = state.sources.splice(index, 1);
          state.sources.splice(target, 0, moved!);
          renderSourcePicker(source.key, action);
          sourcesChanged();
        });
        return button;
      };
      const item = element('li', {}, checkbox, label, move(-1, 'up'), move(1, 'down'));
      item.dataset.key = source.key;
      return item;
    }),
  );
  if (focusKey && focusAction) {
    const button = list.querySelector<HTMLButtonElement>(
      `li[data-key="${focusKey}"] [data-action="${focusAction}"]`,
    );
    (button && !button.disabled
      ? button
      : list.querySelector<HTMLElement>(`li[data-key="${focusKey}"] input`)
    )?.focus();
  }
  const used = state.sources.filter((source) => source.used).map((source) => source.key);
  $('sources-summary').textContent =
    used.length === 0
      ? `none ticked: the service's default priority is used (${state.defaultSources.join(', ')})`
      : sourcesParam() === undefined
        ? `the service's default priority: ${used.join(', ')}`
        : `your priority: ${used.join(', ')}`;
}

let sourcesTimer: number | undefined;
function sourcesChanged(): void {
  window.clearTimeout(sourcesTimer);
  sourcesTimer = window.setTimeout(() => void refreshData(), 250);
}

// Publishers' status -----------------------------------------------------------------------

async function loadStatus(): Promise<void> {
  const table = $('status-table');
  const toggle = $<HTMLButtonElement>('status-all');
  setMessage('status-message', '');
  try {
    const { body } = await getJson<StatusAnswer>('/v1/exchangerate/status');
    const withNext = body.sources.some((row) => 'next_attempt' in row);
    const headers = ['Source', 'State', 'Last success', 'Observations', 'History'];
    if (withNext) headers.push('Next attempt');
    table.querySelector('thead tr')!.replaceChildren(
      ...headers.map((text) => {
        const th = element('th', { text });
        th.scope = 'col';
        if (text === 'Observations') th.className = 'num';
        return th;
      }),
    );
    const active = body.sources.filter(
      (row) => ACTIVE_STATES.has(row.state) || row.observations > 0,
    );
    const shown = state.showAllStatus ? body.sources : active;
    const failing = body.sources.filter((row) => row.state === 'failing').length;
    $('status-caption').textContent =
      `${body.sources.length} publishers registered, ${active.length} with data or attempts` +
      `${failing > 0 ? `, ${failing} failing` : ''}. ` +
      (body.ingesting ? 'This service is fetching new rates.' : 'This service is not fetching.');
    toggle.textContent = state.showAllStatus
      ? 'Show only publishers with data'
      : `Show all ${body.sources.length} publishers`;
    toggle.setAttribute('aria-expanded', String(state.showAllStatus));
    if (shown.length === 0)
      setMessage(
        'status-message',
        body.ingesting
          ? 'No publisher has been fetched yet. The service fills its database by itself; this list fills as it goes.'
          : 'No publisher has been fetched yet, and this service does not fetch (it runs with --no-ingest): fill it with fxrates ingest or fxrates import.',
        'empty',
      );
    table.querySelector('tbody')!.replaceChildren(
      ...shown.map((row) => {
        const stateCell = cell(
          'State',
          element('span', { className: `badge state-${row.state}`, text: row.state }),
        );
        if (row.last_error)
          stateCell.firstElementChild!.append(
            element('small', { className: 'error', text: row.last_error }),
          );
        const cells = [
          cell(
            'Source',
            element('span', { className: 'code', text: row.source }),
            element('span', { className: 'name', text: state.sourceNames.get(row.source) ?? '' }),
          ),
          stateCell,
          cell(
            'Last success',
            element('span', { className: 'dates', text: utcTime(row.last_success) }),
          ),
          cell(
            'Observations',
            element('span', { className: 'num', text: groupThousands(String(row.observations)) }),
          ),
          cell(
            'History',
            row.first_date && row.last_date
              ? element(
                  'span',
                  {},
                  element('span', { className: 'dates', text: row.first_date }),
                  ' to ',
                  element('span', { className: 'dates', text: row.last_date }),
                )
              : '—',
          ),
        ];
        if (withNext)
          cells.push(
            cell(
              'Next attempt',
              element('span', { className: 'dates', text: utcTime(row.next_attempt) }),
            ),
          );
        const tr = element('tr', {}, ...cells);
        tr.dataset.source = row.source;
        tr.dataset.state = row.state;
        return tr;
      }),
    );
  } catch (error) {
    table.querySelector('tbody')!.replaceChildren();
    setMessage('status-message', messageOf(error));
  }
}

// Wiring -----------------------------------------------------------------------------------

async function refreshData(): Promise<void> {
  try {
    await loadCurrencies();
  } catch (error) {
    setMessage('latest-message', messageOf(error));
  }
  await Promise.all([convert(), loadTable(), loadChart()]);
}

async function start(): Promise<void> {
  $('convert-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void convert();
  });
  $('swap').addEventListener('click', () => {
    const from = $<HTMLSelectElement>('from');
    const to = $<HTMLSelectElement>('to');
    [from.value, to.value] = [to.value, from.value];
    [state.chosen.from, state.chosen.to] = [from.value, to.value];
    void convert();
  });
  for (const id of CURRENCY_SELECTS) {
    const select = $<HTMLSelectElement>(id);
    select.addEventListener('change', () => (state.chosen[id] = select.value));
  }
  for (const id of ['from', 'to', 'convert-date'])
    $(id).addEventListener('change', () => void convert());
  for (const id of ['base', 'table-date']) $(id).addEventListener('change', () => void loadTable());
  $('table-filter').addEventListener('input', filterTable);
  for (const id of ['chart-from', 'chart-to'])
    $(id).addEventListener('change', () => void loadChart());
  for (const radio of document.querySelectorAll('input[name="range"]'))
    radio.addEventListener('change', () => void loadChart());
  $('sources-reset').addEventListener('click', () => {
    const defaults = new Set(state.defaultSources);
    state.sources.sort(
      (a, b) =>
        Number(defaults.has(b.key)) - Number(defaults.has(a.key)) ||
        (defaults.has(a.key)
          ? state.defaultSources.indexOf(a.key) - state.defaultSources.indexOf(b.key)
          : 0),
    );
    for (const source of state.sources) source.used = defaults.has(source.key);
    renderSourcePicker();
    sourcesChanged();
  });
  $('status-all').addEventListener('click', () => {
    state.showAllStatus = !state.showAllStatus;
    void loadStatus();
  });

  try {
    const [latest, status] = await Promise.all([
      getJson<RatesOfDate>('/v1/exchangerate/latest'),
      getJson<StatusAnswer>('/v1/exchangerate/status').catch(() => null),
    ]);
    state.today = latest.body.date;
    state.shownDate = latest.body.date;
    if (status) {
      state.ingesting = status.body.ingesting;
      // Data that ends before today (an import served without fetching): its newest date.
      const newest = status.body.sources
        .map((row) => row.last_date ?? '')
        .reduce((a, b) => (a > b ? a : b), '');
      if (Object.keys(latest.body.rates).length === 0 && newest !== '' && newest < state.today)
        state.shownDate = newest;
    }
  } catch {
    // The sections below say what failed.
  }
  for (const id of ['convert-date', 'table-date']) $<HTMLInputElement>(id).value = state.shownDate;
  await Promise.all([loadSources().catch(() => undefined), loadStatus()]);
  await refreshData();
  document.body.dataset.ready = 'true';
}

void start();
