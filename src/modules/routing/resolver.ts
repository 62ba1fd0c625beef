// Routing as data plus a pure function: compileRouting() turns a code's rules into matchers once,
// decide() picks the destination for a scan, explain() says why each rule did or did not match.
// Both share one set of per-condition matchers; only explain() builds strings.
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { cidrMatcher } from '../../shared/cidr.ts';
import type { Conditions, Device } from './conditions.ts';
import type { Routing } from './rule.ts';
import { compileTimeWindow } from './time-window.ts';

/** What the resolver knows about a scan. */
export interface ScanFacts {
  now: Date;
  /** ISO 3166-1 alpha-2, upper case, or null when unknown. */
  country: string | null;
  /**
   * type as bowser's platform type ('mobile', 'tablet', 'desktop', 'tv', 'bot'); os as bowser names it ('iOS',
   * 'Android', ...).
   */
  device: { type: string | null; os: string | null };
  /** Primary language subtags, lower case, most preferred first; may be empty. */
  languages: string[];
  /** IPv4 or IPv6 text, or null. */
  ip: string | null;
  /** Query string of the scan URL. */
  query: URLSearchParams;
  /** Stable opaque string per visitor; keeps split bucketing sticky. */
  visitorKey: string;
}

/** One condition of a rule: `test` for the hot path, `describe` for the mismatch reason. */
interface Condition {
  test(facts: ScanFacts): boolean;
  describe(facts: ScanFacts): string;
}

interface CompiledRule {
  id: string;
  conditions: Condition[];
  destination(facts: ScanFacts): string;
}

/** A code's routing with every matcher prebuilt; build once per code, reuse for every scan. */
export interface CompiledRouting {
  enabled: boolean;
  rules: CompiledRule[];
}

/** Where a scan goes and which rule sent it there (null: the code's own destination). */
export interface Decision {
  destination: string;
  ruleId: string | null;
}

/** One rule's verdict; `reasons` holds one line per failing condition and is empty on a match. */
export interface RuleEvaluation {
  rule_id: string;
  matched: boolean;
  reasons: string[];
}

/** The decision plus every rule's evaluation, for the debugging endpoint. */
export interface Explanation extends Decision {
  evaluations: RuleEvaluation[];
}

const list = (values: readonly string[]): string => values.join(', ');

function deviceMatches(device: Device, facts: ScanFacts): boolean {
  switch (device) {
    // iPadOS reports itself as iOS too, so 'ios' covers iPads.
    case 'ios':
      return facts.device.os === 'iOS';
    case 'android':
      return facts.device.os === 'Android';
    default:
      return facts.device.type === device;
  }
}

/**
 * '::ffff:203.0.113.5' is an IPv4 client seen through a dual-stack socket: check it as IPv4
 * (Node 20's BlockList also does this itself; being explicit keeps us independent of that).
 * Text that is no address gives null, which never matches.
 */
function normalizeIp(ip: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  const address = mapped?.[1] ?? ip;
  const version = isIP(address);
  if (version === 0) return null;
  return { address, family: version === 4 ? 'ipv4' : 'ipv6' };
}

function compileConditions(c: Conditions): Condition[] {
  const out: Condition[] = [];
  if (c.countries) {
    const countries = new Set(c.countries);
    out.push({
      test: (f) => f.country !== null && countries.has(f.country),
      describe: (f) =>
        f.country === null ? 'country unknown' : `country ${f.country} is not one of ${list(c.countries!)}`,
    });
  }
  if (c.devices) {
    const devices = c.devices;
    out.push({
      test: (f) => devices.some((d) => deviceMatches(d, f)),
      describe: (f) =>
        `device ${(f.device.os ?? 'unknown').toLowerCase()}/${f.device.type ?? 'unknown'} is not one of ` +
        `${list(devices)}`,
    });
  }
  if (c.days || c.from !== undefined) {
    const window = compileTimeWindow(c);
    out.push({ test: (f) => window.test(f.now), describe: (f) => window.describe(f.now) });
  }
  if (c.languages) {
    const languages = new Set(c.languages);
    out.push({
      // Only the preferred language counts: a German speaker who also accepts English gets German.
      test: (f) => f.languages[0] !== undefined && languages.has(f.languages[0]),
      describe: (f) =>
        f.languages[0] === undefined
          ? 'no preferred language'
          : `language ${f.languages[0]} is not one of ${list(c.languages!)}`,
    });
  }
  if (c.cidrs) {
    const blocks = cidrMatcher(c.cidrs);
    out.push({
      test: (f) => {
        const ip = f.ip === null ? null : normalizeIp(f.ip);
        return ip !== null && blocks.check(ip.address, ip.family);
      },
      describe: (f) => (f.ip === null ? 'ip unknown' : `ip ${f.ip} is not in ${list(c.cidrs!)}`),
    });
  }
  // One condition per parameter, so each mismatching parameter gets its own reason.
  for (const [key, expected] of Object.entries(c.params ?? {})) {
    out.push({
      test: (f) => f.query.get(key) === expected,
      describe: (f) => {
        const actual = f.query.get(key);
        return `query ${key} is ${actual === null ? 'missing' : `'${actual}'`}, not '${expected}'`;
      },
    });
  }
  if (c.after !== undefined) {
    const after = Date.parse(c.after);
    const text = new Date(after).toISOString();
    out.push({
      test: (f) => f.now.getTime() >= after,
      describe: (f) => `now ${f.now.toISOString()} is before ${text}`,
    });
  }
  if (c.before !== undefined) {
    const before = Date.parse(c.before);
    const text = new Date(before).toISOString();
    out.push({
      test: (f) => f.now.getTime() < before,
      describe: (f) => `now ${f.now.toISOString()} is not before ${text}`,
    });
  }
  return out;
}

/** Sticky weighted choice: the visitor's bucket depends only on visitorKey and rule id. */
function compileSplit(ruleId: string, weights: NonNullable<Conditions['weights']>): (facts: ScanFacts) => string {
  const cumulative: number[] = [];
  let total = 0;
  for (const { weight } of weights) cumulative.push((total += weight));
  return (facts) => {
    const hash = createHash('sha256').update(`${facts.visitorKey}:${ruleId}`).digest('hex');
    const bucket = Number.parseInt(hash.slice(0, 8), 16) % total;
    const index = cumulative.findIndex((upper) => bucket < upper);
    return weights[index]!.destination;
  };
}

/**
 * Prebuilds every rule's matchers (CIDR block lists, parsed instants, split weights, time zone
 * formatters). Validates nothing: the routing has already passed the schema.
 */
export function compileRouting(routing: Routing): CompiledRouting {
  return {
    enabled: routing.enabled,
    rules: routing.rules.map((rule) => {
      const weights = rule.conditions.weights;
      const fixed = rule.destination ?? '';
      return {
        id: rule.id,
        conditions: compileConditions(rule.conditions),
        destination: weights ? compileSplit(rule.id, weights) : () => fixed,
      };
    }),
  };
}

/** Hot path: the first rule whose conditions all hold wins; otherwise the fallback. */
export function decide(compiled: CompiledRouting, fallback: string, facts: ScanFacts): Decision {
  if (compiled.enabled) {
    for (const rule of compiled.rules) {
      if (rule.conditions.every((c) => c.test(facts))) {
        return { destination: rule.destination(facts), ruleId: rule.id };
      }
    }
  }
  return { destination: fallback, ruleId: null };
}

/**
 * Like decide(), but evaluates every rule, also those after the first match and also when
 * routing is disabled (then no rule matches and each says so first).
 */
export function explain(compiled: CompiledRouting, fallback: string, facts: ScanFacts): Explanation {
  const evaluations = compiled.rules.map((rule): RuleEvaluation => {
    const reasons = rule.conditions.filter((c) => !c.test(facts)).map((c) => c.describe(facts));
    if (!compiled.enabled) reasons.unshift('routing is disabled');
    return { rule_id: rule.id, matched: reasons.length === 0, reasons };
  });
  const index = evaluations.findIndex((e) => e.matched);
  const winner = index === -1 ? undefined : compiled.rules[index];
  return winner
    ? { destination: winner.destination(facts), ruleId: winner.id, evaluations }
    : { destination: fallback, ruleId: null, evaluations };
}
