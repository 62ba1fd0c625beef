// Per-request DataLoaders for per-code analytics: every `scanCount`/`uniqueScanCount` of a
// request with the same window becomes one grouped query, results in key order.
import DataLoader from 'dataloader';
import type { Principal } from '../../shared/principal.ts';
import type { AnalyticsService } from './service.ts';
import type { CodeTotals, Window } from '../scans/index.ts';

export function createAnalyticsLoaders(principal: Principal, analytics: AnalyticsService) {
  const byWindow = new Map<string, DataLoader<string, CodeTotals>>();
  return {
    /** The loader of code totals over one window (one per distinct window in the request). */
    codeTotals(window: Window): DataLoader<string, CodeTotals> {
      const key = `${window.from}|${window.to}|${window.includeBots}`;
      let loader = byWindow.get(key);
      if (!loader) {
        loader = new DataLoader((ids: readonly string[]) => analytics.totalsByCode(principal, ids, window));
        byWindow.set(key, loader);
      }
      return loader;
    },
  };
}

export type AnalyticsLoaders = ReturnType<typeof createAnalyticsLoaders>;
