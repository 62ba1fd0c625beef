// What the page says to the scans chart's worker (chart-worker.ts), which draws with Chart.js on
// the canvas the page handed it (an OffscreenCanvas), so none of Chart.js's work runs on the
// page's main thread. Sizes and positions are CSS pixels of the canvas's box.
export type ChartMessage =
  /** First, once: the canvas and its box. */
  | { kind: 'start'; canvas: OffscreenCanvas; width: number; height: number; pixelRatio: number }
  /** The numbers to draw, again whenever they, the labels' words or the locale change. */
  | {
      kind: 'data';
      labels: string[];
      series: { label: string; data: number[] }[];
      /** The locale the axis's and tooltip's numbers are written in. */
      locale: string;
    }
  /** The box took another size. */
  | { kind: 'size'; width: number; height: number }
  /** The pointer is over the canvas at (x, y), or (null) left it: the tooltip follows. */
  | { kind: 'pointer'; x: number; y: number }
  | { kind: 'pointer'; x: null; y: null };
