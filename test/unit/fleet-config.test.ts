// The committed HAProxy config must let the instances' MySQL pools close idle connections
// before HAProxy cuts them: when HAProxy's idle timeout equalled the pool's (30 s both), a query
// now and then went out on a connection HAProxy was closing, and the fleet test saw 503 scans
// and a 500 API call before any node was killed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MYSQL_POOL_IDLE_MS } from '../../src/db/knex.ts';

const cfg = readFileSync(new URL('../../deploy/haproxy/fleet.cfg', import.meta.url), 'utf8');

/** The sections of an HAProxy config by their header line ("defaults", "frontend fleet_db", ...). */
function sections(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    if (!/^\s/.test(raw)) out.set(line, (current = []));
    else current.push(line);
  }
  return out;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A `timeout <name>` of a section, falling back to the defaults section, in milliseconds. */
function timeoutMs(all: Map<string, string[]>, section: string, name: string): number {
  for (const lines of [all.get(section), all.get('defaults')]) {
    const line = lines?.find((l) => l.startsWith(`timeout ${name} `));
    if (!line) continue;
    const [, value, unit = 'ms'] = /^timeout \S+ (\d+)(ms|s|m|h|d)?$/.exec(line)!;
    return Number(value) * UNIT_MS[unit]!;
  }
  throw new Error(`no timeout ${name} for ${section}`);
}

describe('deploy/haproxy/fleet.cfg against the MySQL pool', () => {
  const all = sections(cfg);

  it('cuts idle database connections only well after the pool has closed them', () => {
    expect(all.has('frontend fleet_db')).toBe(true);
    expect(all.has('backend galera')).toBe(true);
    const cut = Math.min(timeoutMs(all, 'frontend fleet_db', 'client'), timeoutMs(all, 'backend galera', 'server'));
    // The pool reaps once a second after the idle time: ask for a margin of several times that.
    expect(cut).toBeGreaterThanOrEqual(MYSQL_POOL_IDLE_MS * 3);
  });
});
