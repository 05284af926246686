import uPlot from 'uplot';

export interface HistoryPoint {
  date: string;
  rate: number;
  rateText: string;
  source: string;
}

/**
 * A line chart of one pair's history. Hovering (or the arrow keys, when the chart has focus)
 * shows the date, rate and source of the nearest point.
 */
export class HistoryChart {
  private plot: uPlot | null = null;
  private points: HistoryPoint[] = [];
  private index: number | null = null;
  private readonly tooltip: HTMLElement;

  constructor(
    private readonly host: HTMLElement,
    private readonly readout: HTMLElement,
  ) {
    this.tooltip = document.createElement('div');
    this.tooltip.className = 'chart-tooltip';
    this.tooltip.hidden = true;
    host.addEventListener('keydown', (event) => this.onKey(event));
    host.addEventListener('focus', () => this.show(this.index ?? this.points.length - 1));
    host.addEventListener('blur', () => {
      this.tooltip.hidden = true;
    });
    new ResizeObserver(() => this.resize()).observe(host);
  }

  /** Points in date order, oldest first. */
  draw(points: HistoryPoint[], label: string): void {
    this.points = points;
    this.index = null;
    const xs = points.map((point) => Date.parse(`${point.date}T00:00:00Z`) / 1000);
    const ys = points.map((point) => point.rate);
    this.plot?.destroy();
    this.host.replaceChildren();
    this.readout.textContent =
      points.length > 0 ? 'Hover or use the arrow keys to read a rate.' : '';
    if (points.length === 0) return;
    const styles = getComputedStyle(document.documentElement);
    const line = styles.getPropertyValue('--accent').trim() || '#2454d6';
    const grid = styles.getPropertyValue('--grid').trim() || '#e3e7ee';
    const ink = styles.getPropertyValue('--muted').trim() || '#5b6472';
    const axis = {
      stroke: ink,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1 },
    };
    this.plot = new uPlot(
      {
        ...this.size(),
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { drag: { x: false, y: false }, points: { size: 8 } },
        scales: { x: { time: true } },
        axes: [
          { ...axis },
          { ...axis, size: 64, values: (_plot, values) => values.map((v) => compact(v)) },
        ],
        series: [
          {},
          {
            label,
            stroke: line,
            width: 2,
            fill: `${line}18`,
            points: { show: points.length < 60 },
          },
        ],
        hooks: { setCursor: [(plot) => this.show(plot.cursor.idx ?? null)] },
      },
      [xs, ys],
      this.host,
    );
    this.plot.over.appendChild(this.tooltip);
    this.host.dataset.points = String(points.length);
  }

  private size(): { width: number; height: number } {
    const width = Math.max(240, this.host.clientWidth);
    return { width, height: width < 500 ? 220 : 300 };
  }

  private resize(): void {
    if (this.plot) this.plot.setSize(this.size());
  }

  private show(index: number | null): void {
    const point = index === null ? undefined : this.points[index];
    if (!point || !this.plot) {
      this.tooltip.hidden = true;
      return;
    }
    this.index = index;
    const text = `${point.date} · ${point.rateText} · ${point.source}`;
    this.readout.textContent = text;
    this.tooltip.replaceChildren(
      element('strong', point.date),
      element('span', point.rateText),
      element('span', `source ${point.source}`),
    );
    this.tooltip.hidden = false;
    const left = this.plot.valToPos(Date.parse(`${point.date}T00:00:00Z`) / 1000, 'x');
    const top = this.plot.valToPos(point.rate, 'y');
    const width = this.plot.over.clientWidth;
    this.tooltip.style.left = `${Math.min(Math.max(left + 12, 0), Math.max(0, width - 170))}px`;
    this.tooltip.style.top = `${Math.max(top - 60, 0)}px`;
  }

  private onKey(event: KeyboardEvent): void {
    if (!this.plot || this.points.length === 0) return;
    const last = this.points.length - 1;
    const current = this.index ?? last;
    const step = event.shiftKey ? 10 : 1;
    const next =
      event.key === 'ArrowLeft'
        ? Math.max(0, current - step)
        : event.key === 'ArrowRight'
          ? Math.min(last, current + step)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const point = this.points[next]!;
    this.plot.setCursor({
      left: this.plot.valToPos(Date.parse(`${point.date}T00:00:00Z`) / 1000, 'x'),
      top: this.plot.valToPos(point.rate, 'y'),
    });
    this.show(next);
  }
}

function element(tag: string, text: string): HTMLElement {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

/** Axis labels: enough digits to tell ticks apart, no more. */
function compact(value: number): string {
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return value.toLocaleString('en', { maximumFractionDigits: 0 });
  if (magnitude >= 1) return value.toLocaleString('en', { maximumFractionDigits: 3 });
  return value.toPrecision(3);
}
