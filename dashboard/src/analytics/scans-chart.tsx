// Scans over time as a Chart.js line chart, with the same numbers as a table for screen readers
// (and anyone who wants the exact counts). Chart.js draws in a worker (chart-worker.ts) on the
// canvas this component hands it: the page's main thread keeps only the box, its size and the
// pointer, so the chart costs the page's first seconds nothing of its own.
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatCount, formatPeriod } from '../format.ts';
import { currentLocale } from '../i18n/locale.ts';
import { useT } from '../i18n/index.ts';
import type { ChartMessage } from './chart-messages.ts';
import { CsvButton, csvName } from './csv.tsx';
import type { Range } from './range.ts';

export interface PeriodCount {
  period: string;
  scans: number;
  uniqueScans: number;
}

interface ScansChartProps {
  series: PeriodCount[];
  granularity: string;
  timezone: string;
  /** The picked range, for the CSV's name. */
  range: Range;
}

/**
 * The worker that draws on `canvas`, with a typed post; null when this browser cannot hand a
 * canvas over. The canvas fills its box (styles.css), so its size is the box's.
 */
function startChartWorker(canvas: HTMLCanvasElement): { post: (message: ChartMessage) => void; worker: Worker } | null {
  if (typeof canvas.transferControlToOffscreen !== 'function') return null;
  const worker = new Worker(new URL('./chart-worker.ts', import.meta.url), { type: 'module' });
  const offscreen = canvas.transferControlToOffscreen();
  const post = (message: ChartMessage) => worker.postMessage(message, message.kind === 'start' ? [offscreen] : []);
  post({
    kind: 'start',
    canvas: offscreen,
    width: canvas.clientWidth,
    height: canvas.clientHeight,
    pixelRatio: devicePixelRatio,
  });
  return { post, worker };
}

export function ScansChart({ series, granularity, timezone, range }: ScansChartProps) {
  const t = useT();
  const words = t.analytics.chart;
  const canvas = useRef<HTMLCanvasElement>(null);
  const post = useRef<((message: ChartMessage) => void) | null>(null);
  const [failed, setFailed] = useState(false);
  const labels = series.map((p) => formatPeriod(p.period, granularity, timezone));

  useEffect(() => {
    const element = canvas.current!;
    const started = startChartWorker(element);
    if (!started) return setFailed(true);
    const { worker } = started;
    post.current = started.post;
    worker.onerror = () => setFailed(true);
    const resized = new ResizeObserver(() =>
      started.post({ kind: 'size', width: element.clientWidth, height: element.clientHeight }),
    );
    resized.observe(element);
    const move = (e: PointerEvent) => started.post({ kind: 'pointer', x: e.offsetX, y: e.offsetY });
    const leave = () => started.post({ kind: 'pointer', x: null, y: null });
    element.addEventListener('pointermove', move);
    element.addEventListener('pointerleave', leave);
    return () => {
      resized.disconnect();
      worker.terminate();
      post.current = null;
    };
  }, []);

  useEffect(() => {
    post.current?.({
      kind: 'data',
      labels,
      series: [
        { label: words.scans, data: series.map((p) => p.scans) },
        { label: words.uniqueScans, data: series.map((p) => p.uniqueScans) },
      ],
      // The axis's and tooltip's numbers in the page's locale.
      locale: currentLocale(),
    });
  }, [series, granularity, timezone, t]);

  return (
    <figure class="chart scans-chart">
      <div class="chart-head">
        <h3>{words.title}</h3>
        <CsvButton
          label={words.title}
          filename={csvName('scans-by', granularity, range.from, range.to)}
          rows={() => [
            [`period start (${timezone})`, 'period', 'scans', 'unique_scans'],
            ...series.map((p, i) => [p.period, labels[i]!, p.scans, p.uniqueScans]),
          ]}
        />
      </div>
      <div class="chart-box">
        <canvas ref={canvas} role="img" aria-label={words.title} />
      </div>
      {failed && <p class="error-box">{words.notDrawn}</p>}
      <details>
        <summary>{words.data}</summary>
        <table class="chart-data">
          <thead>
            <tr>
              <th>{t.analytics.columns.period}</th>
              <th class="number">{t.analytics.columns.scans}</th>
              <th class="number">{t.analytics.columns.unique}</th>
            </tr>
          </thead>
          <tbody>
            {series.map((p, i) => (
              <tr key={p.period} data-period={p.period}>
                <td>{labels[i]}</td>
                <td class="number">{formatCount(p.scans)}</td>
                <td class="number">{formatCount(p.uniqueScans)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
