// The conditions a routing rule can hold. A rule's `type` names the dimension it is about and
// requires that dimension's fields; any other dimension's fields may be added to the same
// `conditions` object, and then all of them must match (AND). Several rules give OR.
import countries from 'i18n-iso-countries';
import { z } from 'zod';
import { httpUrlSchema } from '../../shared/url.ts';
import { parseCidr } from '../../shared/cidr.ts';

export const RULE_TYPES = ['geo', 'device', 'time', 'language', 'ip', 'query', 'schedule', 'split'] as const;
export type RuleType = (typeof RULE_TYPES)[number];

export const DEVICES = ['ios', 'android', 'desktop', 'mobile', 'tablet'] as const;
export type Device = (typeof DEVICES)[number];

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Day = (typeof DAYS)[number];

// The enums, exported so GraphQL derives its enum types from the same values.
export const ruleTypeSchema = z.enum(RULE_TYPES, { error: `must be one of ${RULE_TYPES.join(', ')}` });
export const deviceSchema = z.enum(DEVICES, { error: `must be one of ${DEVICES.join(', ')}` });
export const daySchema = z.enum(DAYS, { error: `must be one of ${DAYS.join(', ')}` });

export const countryCode = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .refine((value) => /^[A-Z]{2}$/.test(value) && countries.isValid(value), {
    error: (issue) => `'${String(issue.input)}' is not an ISO 3166-1 alpha-2 country code such as US or DE`,
  });

/** True for an IANA zone name that this runtime knows (Intl throws RangeError otherwise). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day HH:MM, 00:00 to 23:59');
const instant = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2026-12-01T00:00:00Z' });

export const conditionsSchema = z
  .strictObject({
    countries: z
      .array(countryCode)
      .min(1, 'name at least one country')
      .max(250)
      .meta({
        description:
          'ISO 3166-1 alpha-2 codes (any case; stored upper case). Matches when the scan comes from one of them.',
        example: ['US', 'CA'],
      }),
    devices: z
      .array(deviceSchema)
      .min(1, 'name at least one device')
      .max(DEVICES.length)
      .meta({
        description:
          '`ios` and `android` match the operating system (iPads count as ios); `desktop`, `mobile` and `tablet` ' +
          'the kind of device.',
        example: ['ios'],
      }),
    days: z
      .array(daySchema)
      .min(1, 'name at least one day')
      .max(7)
      .meta({ description: 'Days of the week in `timezone`.', example: ['mon', 'tue', 'wed', 'thu', 'fri'] }),
    from: clock.meta({
      description: 'Start of a daily window, HH:MM in `timezone`; goes with `to`.',
      example: '09:00',
    }),
    to: clock.meta({
      description: 'End of the window (exclusive). A window may pass midnight (22:00 to 02:00).',
      example: '17:30',
    }),
    timezone: z
      .string()
      .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin or UTC')
      .meta({ description: 'IANA time zone of `days` and `from`/`to`; UTC when left out.', example: 'Europe/Berlin' }),
    languages: z
      .array(
        z
          .string()
          .regex(/^[A-Za-z]{2,3}$/, 'must be a primary language tag such as de or fr')
          .transform((v) => v.toLowerCase()),
      )
      .min(1, 'name at least one language')
      .max(50)
      .meta({
        description: 'Primary language tags; matches the visitor’s most preferred language (Accept-Language).',
        example: ['de', 'fr'],
      }),
    cidrs: z
      .array(z.string().refine((v) => parseCidr(v) !== null, 'must be an IP address or CIDR such as 203.0.113.0/24'))
      .min(1, 'name at least one address range')
      .max(100)
      .meta({
        description: 'IPv4 or IPv6 addresses or ranges the visitor’s address must be in.',
        example: ['203.0.113.0/24', '2001:db8::/32'],
      }),
    params: z
      .record(z.string().min(1).max(100), z.string().max(500))
      .refine((params) => Object.keys(params).length > 0, 'name at least one query parameter')
      .meta({
        description: 'Query parameters the scan URL must carry with exactly these values (every one of them).',
        example: { src: 'flyer' },
      }),
    after: instant.meta({ description: 'Matches from this instant on.', example: '2026-12-01T00:00:00Z' }),
    before: instant.meta({ description: 'Matches until this instant (exclusive).', example: '2027-01-01T00:00:00Z' }),
    weights: z
      .array(z.strictObject({ destination: httpUrlSchema, weight: z.number().int().min(1).max(10_000) }))
      .min(2, 'a split needs at least two destinations')
      .max(20)
      .meta({
        description:
          'A split rule’s destinations: each visitor is sent to one of them with a probability proportional to its ' +
          'weight, and to the same one on every scan.',
        example: [
          { destination: 'https://example.com/a', weight: 1 },
          { destination: 'https://example.com/b', weight: 3 },
        ],
      }),
  })
  .partial()
  .superRefine((c, ctx) => {
    if ((c.from === undefined) !== (c.to === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [c.from === undefined ? 'from' : 'to'],
        message: 'from and to go together',
      });
    }
    if (c.from !== undefined && c.from === c.to) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must differ from from (an empty window never matches)' });
    }
    if (c.after && c.before && Date.parse(c.after) >= Date.parse(c.before)) {
      ctx.addIssue({ code: 'custom', path: ['before'], message: 'must be later than after' });
    }
    if (c.timezone !== undefined && c.days === undefined && c.from === undefined) {
      ctx.addIssue({ code: 'custom', path: ['timezone'], message: 'applies to days or from/to; give one of them' });
    }
  })
  .meta({
    id: 'RuleConditions',
    description:
      'What a scan must match. The rule’s `type` requires its own fields (geo: countries; device: devices; time: ' +
      'days or from/to; language: languages; ip: cidrs; query: params; schedule: after or before; split: ' +
      'weights); fields of other dimensions may be added, and then all must match.',
  });

export type Conditions = z.output<typeof conditionsSchema>;

/** Which fields each rule type needs at least one of. */
export const REQUIRED_FIELDS: Record<RuleType, (keyof Conditions)[]> = {
  geo: ['countries'],
  device: ['devices'],
  time: ['days', 'from'],
  language: ['languages'],
  ip: ['cidrs'],
  query: ['params'],
  schedule: ['after', 'before'],
  split: ['weights'],
};

/** Issues when `conditions` lacks what its rule type is about. */
export function missingForType(type: RuleType, conditions: Conditions): string | null {
  const required = REQUIRED_FIELDS[type];
  if (required.some((field) => conditions[field] !== undefined)) return null;
  return `a ${type} rule needs ${required.join(' or ')}`;
}
