import { describe, expect, it } from 'vitest';
import type { Conditions, RuleType } from '../../src/modules/routing/conditions.ts';
import type { Rule } from '../../src/modules/routing/rule.ts';
import { compileRouting, decide, explain } from '../../src/modules/routing/resolver.ts';
import type { ScanFacts } from '../../src/modules/routing/resolver.ts';

const FALLBACK = 'https://example.com/default';

function rule(
  id: string,
  type: RuleType,
  conditions: Conditions,
  destination: string | null = `https://example.com/${id}`,
): Rule {
  return { id, type, priority: 0, conditions, destination };
}

function facts(overrides: Partial<ScanFacts> = {}): ScanFacts {
  return {
    now: new Date('2026-01-14T12:00:00Z'), // a Wednesday
    country: 'US',
    device: { type: 'mobile', os: 'iOS' },
    languages: ['en'],
    ip: '198.51.100.7',
    query: new URLSearchParams(),
    visitorKey: 'visitor-1',
    ...overrides,
  };
}

/** The ruleId decide() picks for a routing of the given rules (enabled). */
function winner(rules: Rule[], f: ScanFacts): string | null {
  return decide(compileRouting({ enabled: true, rules }), FALLBACK, f).ruleId;
}

/** Whether a single rule with these conditions matches. */
function matches(conditions: Conditions, f: ScanFacts, type: RuleType = 'geo'): boolean {
  return winner([rule('r', type, conditions)], f) === 'r';
}

describe('decide: dimensions', () => {
  it('geo: country in list; other or unknown country does not match', () => {
    const c: Conditions = { countries: ['US', 'CA'] };
    expect(matches(c, facts({ country: 'CA' }))).toBe(true);
    expect(matches(c, facts({ country: 'DE' }))).toBe(false);
    expect(matches(c, facts({ country: null }))).toBe(false);
  });

  it('device: ios by os (iPad included), android by os, desktop/mobile/tablet by type', () => {
    expect(matches({ devices: ['ios'] }, facts({ device: { type: 'tablet', os: 'iOS' } }), 'device')).toBe(true);
    expect(matches({ devices: ['ios'] }, facts({ device: { type: 'mobile', os: 'Android' } }), 'device')).toBe(false);
    expect(matches({ devices: ['android'] }, facts({ device: { type: 'mobile', os: 'Android' } }), 'device')).toBe(
      true,
    );
    expect(matches({ devices: ['desktop'] }, facts({ device: { type: 'desktop', os: 'Windows' } }), 'device')).toBe(
      true,
    );
    expect(matches({ devices: ['desktop'] }, facts({ device: { type: 'mobile', os: 'Android' } }), 'device')).toBe(
      false,
    );
    expect(
      matches({ devices: ['tablet', 'desktop'] }, facts({ device: { type: 'tablet', os: 'Android' } }), 'device'),
    ).toBe(true);
    expect(matches({ devices: ['mobile', 'ios'] }, facts({ device: { type: null, os: null } }), 'device')).toBe(false);
  });

  it('language: only the preferred language counts; none never matches', () => {
    const c: Conditions = { languages: ['de', 'fr'] };
    expect(matches(c, facts({ languages: ['de', 'en'] }), 'language')).toBe(true);
    expect(matches(c, facts({ languages: ['en', 'de'] }), 'language')).toBe(false);
    expect(matches(c, facts({ languages: [] }), 'language')).toBe(false);
  });

  it('ip: IPv4 and IPv6 ranges, single addresses, IPv4-mapped IPv6, unknown ip', () => {
    const c: Conditions = { cidrs: ['203.0.113.0/24', '2001:db8::/32', '192.0.2.1'] };
    expect(matches(c, facts({ ip: '203.0.113.200' }), 'ip')).toBe(true);
    expect(matches(c, facts({ ip: '203.0.114.1' }), 'ip')).toBe(false);
    expect(matches(c, facts({ ip: '2001:db8:1::5' }), 'ip')).toBe(true);
    expect(matches(c, facts({ ip: '2001:db9::1' }), 'ip')).toBe(false);
    expect(matches(c, facts({ ip: '192.0.2.1' }), 'ip')).toBe(true);
    expect(matches(c, facts({ ip: '192.0.2.2' }), 'ip')).toBe(false);
    expect(matches(c, facts({ ip: '::ffff:203.0.113.5' }), 'ip')).toBe(true);
    expect(matches(c, facts({ ip: '::FFFF:203.0.114.5' }), 'ip')).toBe(false);
    expect(matches(c, facts({ ip: null }), 'ip')).toBe(false);
    expect(matches(c, facts({ ip: 'not an ip' }), 'ip')).toBe(false);
  });

  it('query: every parameter must equal', () => {
    const c: Conditions = { params: { src: 'flyer', lang: 'de' } };
    expect(matches(c, facts({ query: new URLSearchParams('src=flyer&lang=de&x=1') }), 'query')).toBe(true);
    expect(matches(c, facts({ query: new URLSearchParams('src=flyer') }), 'query')).toBe(false);
    expect(matches(c, facts({ query: new URLSearchParams('src=web&lang=de') }), 'query')).toBe(false);
  });

  it('schedule: after is inclusive, before is exclusive', () => {
    const c: Conditions = { after: '2026-06-01T00:00:00Z', before: '2026-12-01T00:00:00+01:00' };
    const at = (iso: string) => matches(c, facts({ now: new Date(iso) }), 'schedule');
    expect(at('2026-05-31T23:59:59.999Z')).toBe(false);
    expect(at('2026-06-01T00:00:00.000Z')).toBe(true);
    expect(at('2026-11-30T22:59:59.999Z')).toBe(true);
    expect(at('2026-11-30T23:00:00.000Z')).toBe(false);
    expect(
      matches({ after: '2026-06-01T00:00:00Z' }, facts({ now: new Date('2030-01-01T00:00:00Z') }), 'schedule'),
    ).toBe(true);
    expect(
      matches({ before: '2026-06-01T00:00:00Z' }, facts({ now: new Date('2030-01-01T00:00:00Z') }), 'schedule'),
    ).toBe(false);
  });
});

describe('decide: time windows', () => {
  const at = (conditions: Conditions, iso: string) => matches(conditions, facts({ now: new Date(iso) }), 'time');

  it('days only, in UTC by default', () => {
    const weekend: Conditions = { days: ['sat', 'sun'] };
    expect(at(weekend, '2026-01-03T00:00:00Z')).toBe(true); // Saturday
    expect(at(weekend, '2026-01-02T23:59:00Z')).toBe(false); // Friday
  });

  it('window only applies on any day; from inclusive, to exclusive', () => {
    const c: Conditions = { from: '09:00', to: '17:30' };
    expect(at(c, '2026-01-04T09:00:00Z')).toBe(true); // Sunday
    expect(at(c, '2026-01-04T08:59:59Z')).toBe(false);
    expect(at(c, '2026-01-04T17:29:59Z')).toBe(true);
    expect(at(c, '2026-01-04T17:30:00Z')).toBe(false);
  });

  it('a window crossing midnight belongs to the day it starts on', () => {
    const c: Conditions = { days: ['fri'], from: '22:00', to: '02:00' };
    expect(at(c, '2026-01-02T22:00:00Z')).toBe(true); // Friday 22:00
    expect(at(c, '2026-01-03T01:00:00Z')).toBe(true); // Saturday 01:00, Friday's night
    expect(at(c, '2026-01-02T01:00:00Z')).toBe(false); // Friday 01:00 belongs to Thursday
    expect(at(c, '2026-01-03T02:00:00Z')).toBe(false); // to is exclusive
    expect(at(c, '2026-01-03T22:00:00Z')).toBe(false); // Saturday evening
  });

  it('a window crossing midnight without days matches both sides every day', () => {
    const c: Conditions = { from: '22:00', to: '02:00' };
    expect(at(c, '2026-01-14T23:00:00Z')).toBe(true);
    expect(at(c, '2026-01-14T01:59:00Z')).toBe(true);
    expect(at(c, '2026-01-14T12:00:00Z')).toBe(false);
  });

  it('follows Europe/Berlin across the spring DST change (CET → CEST, 2026-03-29)', () => {
    const c: Conditions = { from: '09:00', to: '17:00', timezone: 'Europe/Berlin' };
    // Saturday before, UTC+1
    expect(at(c, '2026-03-28T07:30:00Z')).toBe(false); // 08:30 local
    expect(at(c, '2026-03-28T08:30:00Z')).toBe(true); // 09:30 local
    // Monday after, UTC+2: the same UTC instant 07:30 is now inside the window
    expect(at(c, '2026-03-30T06:30:00Z')).toBe(false); // 08:30 local
    expect(at(c, '2026-03-30T07:30:00Z')).toBe(true); // 09:30 local
  });

  it('follows Europe/Berlin across the autumn DST change (CEST → CET, 2026-10-25)', () => {
    const c: Conditions = { from: '09:00', to: '17:00', timezone: 'Europe/Berlin' };
    expect(at(c, '2026-10-24T06:30:00Z')).toBe(false); // 08:30 local, UTC+2
    expect(at(c, '2026-10-24T07:30:00Z')).toBe(true); // 09:30 local
    expect(at(c, '2026-10-26T07:30:00Z')).toBe(false); // 08:30 local, UTC+1
    expect(at(c, '2026-10-26T08:30:00Z')).toBe(true); // 09:30 local
  });

  it('uses the local weekday in America/New_York', () => {
    const c: Conditions = {
      days: ['mon', 'tue', 'wed', 'thu', 'fri'],
      from: '09:00',
      to: '17:00',
      timezone: 'America/New_York',
    };
    expect(at(c, '2026-07-15T13:00:00Z')).toBe(true); // Wed 09:00 EDT
    expect(at(c, '2026-07-15T12:59:00Z')).toBe(false); // Wed 08:59 EDT
    expect(at(c, '2026-07-15T21:00:00Z')).toBe(false); // Wed 17:00 EDT
    expect(at(c, '2026-01-14T14:00:00Z')).toBe(true); // Wed 09:00 EST
    expect(at(c, '2026-01-14T13:30:00Z')).toBe(false); // Wed 08:30 EST
    // Saturday 02:00 UTC is still Friday 21:00 in New York; Monday 01:00 UTC is still Sunday there
    expect(at({ days: ['fri'], timezone: 'America/New_York' }, '2026-01-03T02:00:00Z')).toBe(true);
    expect(at({ days: ['mon'], timezone: 'America/New_York' }, '2026-01-05T01:00:00Z')).toBe(false);
  });
});

describe('decide: rule combination', () => {
  it('falls back when nothing matches or there are no rules', () => {
    expect(decide(compileRouting({ enabled: true, rules: [] }), FALLBACK, facts())).toEqual({
      destination: FALLBACK,
      ruleId: null,
    });
    const compiled = compileRouting({ enabled: true, rules: [rule('de', 'geo', { countries: ['DE'] })] });
    expect(decide(compiled, FALLBACK, facts({ country: 'FR' }))).toEqual({ destination: FALLBACK, ruleId: null });
  });

  it('the first matching rule wins when rules overlap', () => {
    const rules = [rule('ios', 'device', { devices: ['ios'] }), rule('us', 'geo', { countries: ['US'] })];
    const compiled = compileRouting({ enabled: true, rules });
    expect(decide(compiled, FALLBACK, facts())).toEqual({ destination: 'https://example.com/ios', ruleId: 'ios' });
    expect(decide(compiled, FALLBACK, facts({ device: { type: 'desktop', os: 'Windows' } }))).toEqual({
      destination: 'https://example.com/us',
      ruleId: 'us',
    });
    expect(winner([...rules].reverse(), facts())).toBe('us');
  });

  it('disabled routing always falls back', () => {
    const compiled = compileRouting({ enabled: false, rules: [rule('us', 'geo', { countries: ['US'] })] });
    expect(decide(compiled, FALLBACK, facts())).toEqual({ destination: FALLBACK, ruleId: null });
  });

  it('conditions within a rule are ANDed', () => {
    const usIos = [rule('us-ios', 'geo', { countries: ['US'], devices: ['ios'] })];
    expect(winner(usIos, facts())).toBe('us-ios');
    expect(winner(usIos, facts({ country: 'DE' }))).toBeNull();
    expect(winner(usIos, facts({ device: { type: 'mobile', os: 'Android' } }))).toBeNull();
  });

  it('rules are ORed', () => {
    const rules = [rule('de', 'geo', { countries: ['DE'] }), rule('fr-lang', 'language', { languages: ['fr'] })];
    expect(winner(rules, facts({ country: 'DE', languages: ['en'] }))).toBe('de');
    expect(winner(rules, facts({ country: 'CA', languages: ['fr'] }))).toBe('fr-lang');
    expect(winner(rules, facts({ country: 'CA', languages: ['en'] }))).toBeNull();
  });
});

describe('decide: split', () => {
  const weights = [
    { destination: 'https://example.com/a', weight: 70 },
    { destination: 'https://example.com/b', weight: 30 },
  ];
  const compiled = compileRouting({ enabled: true, rules: [rule('split', 'split', { weights }, null)] });

  it('is sticky per visitor', () => {
    const first = decide(compiled, FALLBACK, facts({ visitorKey: 'sticky-visitor' }));
    expect(first.ruleId).toBe('split');
    for (let i = 0; i < 100; i++) {
      expect(decide(compiled, FALLBACK, facts({ visitorKey: 'sticky-visitor' }))).toEqual(first);
    }
    // and independent of a new compile of the same routing
    const again = compileRouting({ enabled: true, rules: [rule('split', 'split', { weights }, null)] });
    expect(decide(again, FALLBACK, facts({ visitorKey: 'sticky-visitor' }))).toEqual(first);
  });

  it('distributes visitors by weight', () => {
    let a = 0;
    const n = 10_000;
    for (let i = 0; i < n; i++) {
      const { destination } = decide(compiled, FALLBACK, facts({ visitorKey: `visitor-${i}` }));
      expect(['https://example.com/a', 'https://example.com/b']).toContain(destination);
      if (destination === 'https://example.com/a') a++;
    }
    expect(a / n).toBeGreaterThan(0.67);
    expect(a / n).toBeLessThan(0.73);
  });

  it('still requires its other conditions', () => {
    const gated = compileRouting({
      enabled: true,
      rules: [rule('split', 'split', { weights, countries: ['DE'] }, null)],
    });
    expect(decide(gated, FALLBACK, facts({ country: 'US' }))).toEqual({ destination: FALLBACK, ruleId: null });
    expect(decide(gated, FALLBACK, facts({ country: 'DE' })).ruleId).toBe('split');
  });
});

describe('explain', () => {
  const rules: Rule[] = [
    rule('geo', 'geo', { countries: ['US', 'CA'] }),
    rule('device', 'device', { devices: ['ios'] }),
    rule('time', 'time', {
      days: ['mon', 'tue', 'wed', 'thu', 'fri'],
      from: '09:00',
      to: '17:30',
      timezone: 'Europe/Berlin',
    }),
    rule('query', 'query', { params: { src: 'flyer', medium: 'print' } }),
    rule('schedule', 'schedule', { after: '2026-12-01T00:00:00Z', before: '2027-01-01T00:00:00Z' }),
    rule('lang', 'language', { languages: ['fr'] }),
    rule('ip', 'ip', { cidrs: ['10.0.0.0/8'] }),
    rule('late', 'language', { languages: ['de'] }),
  ];
  const scan = facts({
    now: new Date('2026-01-13T17:05:00Z'), // Tuesday 18:05 in Berlin
    country: 'DE',
    device: { type: 'mobile', os: 'Android' },
    languages: ['de'],
    ip: '203.0.113.5',
    query: new URLSearchParams('src=web'),
  });

  it('evaluates every rule, with readable reasons, and agrees with decide()', () => {
    const compiled = compileRouting({ enabled: true, rules });
    const result = explain(compiled, FALLBACK, scan);
    expect(result.evaluations).toEqual([
      { rule_id: 'geo', matched: false, reasons: ['country DE is not one of US, CA'] },
      { rule_id: 'device', matched: false, reasons: ['device android/mobile is not one of ios'] },
      {
        rule_id: 'time',
        matched: false,
        reasons: ['local time Tue 18:05 (Europe/Berlin) is outside Mon–Fri 09:00–17:30'],
      },
      {
        rule_id: 'query',
        matched: false,
        reasons: ["query src is 'web', not 'flyer'", "query medium is missing, not 'print'"],
      },
      {
        rule_id: 'schedule',
        matched: false,
        reasons: ['now 2026-01-13T17:05:00.000Z is before 2026-12-01T00:00:00.000Z'],
      },
      { rule_id: 'lang', matched: false, reasons: ['language de is not one of fr'] },
      { rule_id: 'ip', matched: false, reasons: ['ip 203.0.113.5 is not in 10.0.0.0/8'] },
      { rule_id: 'late', matched: true, reasons: [] },
    ]);
    expect({ destination: result.destination, ruleId: result.ruleId }).toEqual(decide(compiled, FALLBACK, scan));
    expect(result.ruleId).toBe('late');
  });

  it('keeps evaluating after the first match', () => {
    const compiled = compileRouting({
      enabled: true,
      rules: [
        rule('de', 'geo', { countries: ['DE'] }),
        rule('de-too', 'language', { languages: ['de'] }),
        rule('fr', 'language', { languages: ['fr'] }),
      ],
    });
    const result = explain(compiled, FALLBACK, scan);
    expect(result.evaluations.map((e) => [e.rule_id, e.matched])).toEqual([
      ['de', true],
      ['de-too', true],
      ['fr', false],
    ]);
    expect(result).toMatchObject({ destination: 'https://example.com/de', ruleId: 'de' });
    expect({ destination: result.destination, ruleId: result.ruleId }).toEqual(decide(compiled, FALLBACK, scan));
  });

  it('describes unknown facts and the end of a schedule', () => {
    const compiled = compileRouting({
      enabled: true,
      rules: [
        rule('geo', 'geo', { countries: ['US'] }),
        rule('lang', 'language', { languages: ['en'] }),
        rule('ip', 'ip', { cidrs: ['10.0.0.0/8'] }),
        rule('ended', 'schedule', { before: '2025-01-01T00:00:00Z' }),
      ],
    });
    const result = explain(compiled, FALLBACK, facts({ country: null, languages: [], ip: null }));
    expect(result.evaluations.map((e) => e.reasons)).toEqual([
      ['country unknown'],
      ['no preferred language'],
      ['ip unknown'],
      ['now 2026-01-14T12:00:00.000Z is not before 2025-01-01T00:00:00.000Z'],
    ]);
    expect(result).toMatchObject({ destination: FALLBACK, ruleId: null });
  });

  it('lists one reason per failing condition of an AND rule, and a split destination like decide()', () => {
    const compiled = compileRouting({
      enabled: true,
      rules: [
        rule('both', 'geo', { countries: ['US'], devices: ['desktop'] }),
        rule(
          'split',
          'split',
          {
            weights: [
              { destination: 'https://example.com/a', weight: 1 },
              { destination: 'https://example.com/b', weight: 1 },
            ],
          },
          null,
        ),
      ],
    });
    const f = facts({ country: 'DE', device: { type: 'mobile', os: 'iOS' }, visitorKey: 'v-42' });
    const result = explain(compiled, FALLBACK, f);
    expect(result.evaluations[0]?.reasons).toEqual([
      'country DE is not one of US',
      'device ios/mobile is not one of desktop',
    ]);
    expect(result.ruleId).toBe('split');
    expect(result.destination).toBe(decide(compiled, FALLBACK, f).destination);
  });

  it('says when routing is disabled and falls back', () => {
    const compiled = compileRouting({
      enabled: false,
      rules: [rule('us', 'geo', { countries: ['US'] }), rule('de', 'geo', { countries: ['DE'] })],
    });
    const result = explain(compiled, FALLBACK, facts());
    expect(result).toEqual({
      destination: FALLBACK,
      ruleId: null,
      evaluations: [
        { rule_id: 'us', matched: false, reasons: ['routing is disabled'] },
        { rule_id: 'de', matched: false, reasons: ['routing is disabled', 'country US is not one of DE'] },
      ],
    });
  });
});
