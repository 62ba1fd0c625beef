import { describe, expect, it } from 'vitest';
import { splitKey, utcDay, visitorHash } from '../../src/modules/scans/visitor.ts';

describe('utcDay', () => {
  it('names the UTC day of an instant, across day boundaries in any order', () => {
    const cases: [string, string][] = [
      ['2026-11-22T23:59:59.999Z', '2026-11-22'],
      ['2026-11-23T00:00:00.000Z', '2026-11-23'],
      ['2026-11-22T00:00:00.000Z', '2026-11-22'],
      ['2024-02-29T12:00:00.000Z', '2024-02-29'],
      ['1969-12-31T23:00:00.000Z', '1969-12-31'],
      ['2026-11-23T10:00:00.000Z', '2026-11-23'],
    ];
    for (const [instant, day] of cases) expect(utcDay(Date.parse(instant))).toBe(day);
  });
});

describe('visitor hashes', () => {
  it('depend on the salt, address and User-Agent, and hide the address', () => {
    const a = visitorHash('salt-1', '203.0.113.9', 'UA');
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(visitorHash('salt-1', '203.0.113.9', 'UA')).toBe(a);
    expect(visitorHash('salt-2', '203.0.113.9', 'UA')).not.toBe(a);
    expect(visitorHash('salt-1', '203.0.113.10', 'UA')).not.toBe(a);
    expect(visitorHash('salt-1', '203.0.113.9', 'UA2')).not.toBe(a);
    expect(splitKey('203.0.113.9', 'UA')).toBe(splitKey('203.0.113.9', 'UA'));
    expect(splitKey('203.0.113.9', 'UA')).not.toContain('203');
  });
});
