// The inline rule grammar used inside a code's `routing.rules`: `<dimension>:<value>` parts,
// joined by ` & ` when all of them must match.
//
//   country:US,CA                    device:ios,android            language:de,fr
//   time:mon-fri 09:00-17:30 Europe/Berlin   (days, window and zone each optional; zone defaults to UTC)
//   ip:203.0.113.0/24,2001:db8::/32  query:src=flyer               after:2026-12-01T00:00:00Z
//   before:2027-01-01T00:00:00Z      split  (with `weights` instead of `destination`)
//   country:US & device:ios          (both must match)
import { DAYS, type Conditions, type Day, type RuleType } from './conditions.ts';

/** Inline dimension name -> rule type whose required fields it fills. */
const DIMENSIONS: Record<string, RuleType> = {
  country: 'geo',
  device: 'device',
  time: 'time',
  language: 'language',
  ip: 'ip',
  query: 'query',
  after: 'schedule',
  before: 'schedule',
  split: 'split',
};

export class InlineSyntaxError extends Error {}

const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

function parseDays(token: string): Day[] | null {
  if (token === '*') return [...DAYS];
  const days: Day[] = [];
  for (const part of token.toLowerCase().split(',')) {
    const [start, end] = part.split('-') as [string, string | undefined];
    const from = DAYS.indexOf(start as Day);
    const to = end === undefined ? from : DAYS.indexOf(end as Day);
    if (from < 0 || to < 0) return null;
    // A range may wrap around the week: fri-mon is fri, sat, sun, mon.
    for (let i = from; ; i = (i + 1) % 7) {
      days.push(DAYS[i]!);
      if (i === to) break;
    }
  }
  return [...new Set(days)];
}

function parseTime(value: string): Conditions {
  const conditions: Conditions = {};
  for (const token of value.trim().split(/\s+/)) {
    const window = /^(\d\d:\d\d)-(\d\d:\d\d)$/.exec(token);
    if (window) {
      conditions.from = window[1];
      conditions.to = window[2];
      continue;
    }
    const days =
      /^[a-z*,-]+$/i.test(token) && !token.includes('/') && token.toUpperCase() !== 'UTC' ? parseDays(token) : null;
    if (days) conditions.days = days;
    else conditions.timezone = token;
  }
  if (!conditions.days && !conditions.from) {
    throw new InlineSyntaxError(
      "time needs days (mon-fri, sat,sun) and/or a window (09:00-17:30), e.g. 'time:mon-fri 09:00-17:30 Europe/Berlin'",
    );
  }
  conditions.timezone ??= 'UTC';
  return conditions;
}

function parsePart(dimension: string, value: string): Conditions {
  switch (dimension) {
    case 'country':
      return { countries: list(value) };
    case 'device':
      return { devices: list(value) as Conditions['devices'] };
    case 'language':
      return { languages: list(value) };
    case 'ip':
      return { cidrs: list(value) };
    case 'time':
      return parseTime(value);
    case 'query': {
      const eq = value.indexOf('=');
      if (eq <= 0) throw new InlineSyntaxError("query needs 'name=value', e.g. 'query:src=flyer'");
      return { params: { [value.slice(0, eq)]: value.slice(eq + 1) } };
    }
    case 'after':
      return { after: value.trim() };
    case 'before':
      return { before: value.trim() };
  }
  throw new InlineSyntaxError(`unknown dimension '${dimension}'; supported: ${Object.keys(DIMENSIONS).join(', ')}`);
}

/**
 * Parses an inline condition into a rule type and conditions (not yet validated: the caller
 * runs them through conditionsSchema). Throws InlineSyntaxError with a message for the user.
 */
export function parseInlineCondition(
  condition: string,
  weights?: unknown,
): { type: RuleType; conditions: Record<string, unknown> } {
  const parts = condition.split('&').map((p) => p.trim());
  let type: RuleType | undefined;
  const merged: Record<string, unknown> = {};
  for (const part of parts) {
    const match = /^([a-z]+)(?::(.*))?$/s.exec(part);
    if (!match || (match[1] !== 'split' && !match[2]?.trim())) {
      throw new InlineSyntaxError("each part must have the form '<dimension>:<value>', e.g. 'country:US'");
    }
    const dimension = match[1]!;
    if (!(dimension in DIMENSIONS)) parsePart(dimension, ''); // throws the "unknown dimension" message
    type ??= DIMENSIONS[dimension];
    const conditions: Record<string, unknown> = dimension === 'split' ? { weights } : parsePart(dimension, match[2]!);
    for (const [key, value] of Object.entries(conditions)) {
      if (key === 'params' && merged.params) Object.assign(merged.params as object, value);
      else if (key in merged) throw new InlineSyntaxError(`'${dimension}' appears twice`);
      else merged[key] = value;
    }
  }
  return { type: type!, conditions: merged };
}

function formatDays(days: Day[]): string {
  const indexes = days.map((d) => DAYS.indexOf(d)).sort((a, b) => a - b);
  const consecutive = indexes.every((v, i) => i === 0 || v === indexes[i - 1]! + 1);
  if (indexes.length === 7) return '*';
  if (consecutive && indexes.length > 2) return `${DAYS[indexes[0]!]}-${DAYS[indexes.at(-1)!]}`;
  return indexes.map((i) => DAYS[i]).join(',');
}

/** The inline condition for stored conditions: the rule type's dimension first. */
export function formatInlineCondition(type: RuleType, c: Conditions): string {
  const parts: [RuleType, string][] = [];
  if (c.countries) parts.push(['geo', `country:${c.countries.join(',')}`]);
  if (c.devices) parts.push(['device', `device:${c.devices.join(',')}`]);
  if (c.days || c.from) {
    const tokens = [c.days && formatDays(c.days), c.from && `${c.from}-${c.to}`, c.timezone ?? 'UTC'].filter(Boolean);
    parts.push(['time', `time:${tokens.join(' ')}`]);
  }
  if (c.languages) parts.push(['language', `language:${c.languages.join(',')}`]);
  if (c.cidrs) parts.push(['ip', `ip:${c.cidrs.join(',')}`]);
  for (const [name, value] of Object.entries(c.params ?? {})) parts.push(['query', `query:${name}=${value}`]);
  if (c.after) parts.push(['schedule', `after:${c.after}`]);
  if (c.before) parts.push(['schedule', `before:${c.before}`]);
  if (c.weights) parts.push(['split', 'split']);
  parts.sort((a, b) => Number(b[0] === type) - Number(a[0] === type));
  return parts.map(([, text]) => text).join(' & ');
}
