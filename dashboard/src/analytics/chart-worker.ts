// The scans chart's drawing, in a worker: Chart.js on the OffscreenCanvas the page transferred
// (Chart.js's documented way to draw off the main thread). Building a chart costs 55-90 ms of
// script in Chromium here, 4x that on a throttled phone: on the page's main thread it was the
// analytics page's longest task. What the page says is in chart-messages.ts; the page keeps the
// canvas's box, its size and its pointer events, which a worker has none of.
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
  type ActiveElement,
  type ChartEvent,
} from 'chart.js';
import type { ChartMessage } from './chart-messages.ts';

// Only the parts a line chart uses, so the bundle leaves the rest of Chart.js out.
Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Filler, Legend, Tooltip);

const COLOURS = [
  { borderColor: '#2563eb', backgroundColor: 'rgba(37, 99, 235, 0.15)', fill: true },
  { borderColor: '#16a34a', backgroundColor: '#16a34a', fill: false },
];

let chart: Chart<'line'> | null = null;

function start(canvas: OffscreenCanvas, width: number, height: number, pixelRatio: number): void {
  // Chart.js takes an OffscreenCanvas (its platform for workers), though its types name only the DOM's canvas.
  chart = new Chart(canvas as unknown as HTMLCanvasElement, {
    type: 'line',
    data: { labels: [], datasets: COLOURS.map((colours) => ({ label: '', data: [], tension: 0.25, ...colours })) },
    options: {
      // A worker's canvas has no box of its own to follow: the page sends its size.
      responsive: false,
      maintainAspectRatio: false,
      devicePixelRatio: pixelRatio,
      // New numbers should read at once when a picker changes, not glide in.
      animation: false,
      // Pointer events come from the page ('pointer' messages), not from the canvas.
      events: [],
      interaction: { mode: 'index', intersect: false },
      scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
    },
  });
  chart.resize(width, height);
}

function show(chart: Chart<'line'>, message: Extract<ChartMessage, { kind: 'data' }>): void {
  chart.data.labels = message.labels;
  message.series.forEach(({ label, data }, i) => Object.assign(chart.data.datasets[i]!, { label, data }));
  chart.options.locale = message.locale;
  chart.update();
}

/** The tooltip and highlighted points at the pointer, as Chart.js shows them on hover. */
function point(chart: Chart<'line'>, x: number | null, y: number | null): void {
  let active: ActiveElement[] = [];
  if (x !== null && y !== null) {
    // Chart.js takes an event that carries `native` as already placed on the canvas.
    const event = { type: 'mousemove', x, y, native: null } as ChartEvent;
    active = chart.getElementsAtEventForMode(event as unknown as Event, 'index', { intersect: false }, false);
  }
  chart.setActiveElements(active);
  chart.tooltip?.setActiveElements(active, { x: x ?? 0, y: y ?? 0 });
  chart.update('none');
}

self.onmessage = ({ data: message }: MessageEvent<ChartMessage>) => {
  if (message.kind === 'start') return start(message.canvas, message.width, message.height, message.pixelRatio);
  if (!chart) return;
  if (message.kind === 'data') show(chart, message);
  else if (message.kind === 'size') chart.resize(message.width, message.height);
  else point(chart, message.x, message.y);
};
