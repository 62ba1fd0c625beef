// The module vite.config.ts builds from dashboard/build/world-shapes.ts, as the browser code sees it.
declare module 'virtual:world-shapes' {
  export interface CountryShape {
    /** ISO 3166-1 alpha-2, as scans record countries; null for the few shapes without one. */
    code: string | null;
    /** Natural Earth's name, for shapes without a code. */
    name: string;
    path: string;
  }
  export const WIDTH: number;
  export const HEIGHT: number;
  export const outline: string;
  export const shapes: CountryShape[];
}
