// Scans over time as a Chart.js line chart, with the same numbers as a table for screen readers
// (and anyone who wants the exact counts).
import {
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import { formatCount, formatPeriod } from '../format.ts';
import { currentLocale } from '../i18n/locale.ts';
import { useT } from '../i18n/index.ts';
import { CsvButton, csvName } from './csv.tsx';
import type { Range } from './range.ts';

// Only the parts a line chart uses, so the bundle leaves the rest of Chart.js out.
Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Filler, Legend, Tooltip);

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

export function ScansChart({ series, granularity, timezone, range }: ScansChartProps) {
  const t = useT();
  const words = t.analytics.chart;
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<'line'> | null>(null);
  const labels = series.map((p) => formatPeriod(p.period, granularity, timezone));

  useEffect(() => {
    chart.current = new Chart(canvas.current!, {
      type: 'line',
      data: {
        labels: [],
        datasets: [
          {
            label: '',
            data: [],
            borderColor: '#2563eb',
            backgroundColor: 'rgba(37, 99, 235, 0.15)',
            fill: true,
            tension: 0.25,
          },
          { label: '', data: [], borderColor: '#16a34a', backgroundColor: '#16a34a', tension: 0.25 },
        ],
      },
      options: {
        maintainAspectRatio: false,
        // New numbers should read at once when a picker changes, not glide in.
        animation: false,
        interaction: { mode: 'index', intersect: false },
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
    return () => chart.current?.destroy();
  }, []);

  useEffect(() => {
    const current = chart.current;
    if (!current) return;
    current.data.labels = labels;
    current.data.datasets[0]!.label = words.scans;
    current.data.datasets[0]!.data = series.map((p) => p.scans);
    current.data.datasets[1]!.label = words.uniqueScans;
    current.data.datasets[1]!.data = series.map((p) => p.uniqueScans);
    // The axis's and tooltip's numbers in the page's locale.
    current.options.locale = currentLocale();
    current.update();
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
