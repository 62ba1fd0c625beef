// The floods of bench:noisy-neighbor, one account's heaviest allowed load of each kind, run by it as
// a child process: `tsx bench/noisy-neighbor-flood.ts KIND URL KEY CODE_ID UNTIL_MS` prints the
// tally as JSON. It imports nothing of the service, so that it starts at once. Each runs
// `loops` requests in parallel, one after another per loop, until `until`, and keeps sending past
// 429s (the answers are tallied by status): a client that ignores Retry-After, the worst case.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const FLOODS = ['rest-analytics', 'graphql-analytics', 'render', 'bulk', 'raw-export'] as const;
export type FloodKind = (typeof FLOODS)[number];

/** Answers by status code, and `error` for a dropped connection. */
export type FloodTally = Record<string, number>;

interface Target {
  url: string;
  key: string;
  /** The account's busiest code: its raw export is the longest. */
  codeId: string;
  until: number;
}

/**
 * GraphQL aliases per request. The reproduction had 1,500; before the per-account turns
 * three loops of those left the service minutes of work after their client left, which would
 * spill into the next phases.
 */
const ALIASES = 500;

/** One request of `kind`; `n` varies what is asked so that no cache answers it. */
function requestOf(kind: FloodKind, target: Target, n: number): { path: string; init: RequestInit } {
  const from = isoDay(Date.now() - 89 * DAY);
  switch (kind) {
    case 'rest-analytics':
      // A half-hour zone: its days are not UTC hours' sums, so raw scans are read.
      return { path: `/v1/analytics/overview?from=${from}&timezone=Asia/Kolkata&top=${1 + (n % 50)}`, init: {} };
    case 'graphql-analytics': {
      const fields = Array.from(
        { length: ALIASES },
        (_, i) => `a${i}: analyticsOverview(top: 1, timezone: ` + `"Asia/Kathmandu") { totalScans }`,
      );
      return {
        path: '/graphql',
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: `{ ${fields.join(' ')} }` }),
        },
      };
    }
    case 'render':
      return { path: `/v1/codes/${target.codeId}/image?format=png&size=${4000 + (n % 96)}&margin=${n % 16}`, init: {} };
    case 'bulk':
      return {
        path: '/v1/codes/bulk',
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            codes: Array.from({ length: 10_000 }, (_, i) => ({ content: `https://example.com/bulk/${n}/${i}` })),
          }),
        },
      };
    case 'raw-export':
      return { path: `/v1/codes/${target.codeId}/scans/raw?format=csv`, init: {} };
  }
}

const LOOPS: Record<FloodKind, number> = {
  'rest-analytics': 8,
  'graphql-analytics': 3,
  render: 8,
  bulk: 2,
  'raw-export': 6,
};

export async function runFlood(kind: FloodKind, target: Target): Promise<FloodTally> {
  const tally: FloodTally = {};
  const count = (status: string) => (tally[status] = (tally[status] ?? 0) + 1);
  await Promise.all(
    Array.from({ length: LOOPS[kind] }, async (_, loop) => {
      for (let n = loop; Date.now() < target.until; n += LOOPS[kind]) {
        const { path, init } = requestOf(kind, target, n);
        try {
          const res = await fetch(target.url + path, {
            ...init,
            headers: { ...init.headers, authorization: `Bearer ${target.key}` },
            signal: AbortSignal.timeout(Math.max(1, target.until - Date.now())),
          });
          await res.arrayBuffer();
          count(String(res.status));
        } catch {
          // Cut at the end of the phase, or dropped by the server.
          count(Date.now() >= target.until ? 'cut at the end' : 'error');
        }
      }
    }),
  );
  return tally;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [kind, url, key, codeId, until] = process.argv.slice(2);
  const tally = await runFlood(kind as FloodKind, { url: url!, key: key!, codeId: codeId!, until: Number(until) });
  console.log(JSON.stringify(tally));
}
