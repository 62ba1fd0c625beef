// Time-of-week conditions: days and/or an HH:MM window, in an IANA time zone.
// The local weekday and minute come from Intl.DateTimeFormat, so DST is handled by the runtime's
// zone data rather than by fixed offsets.
import { DAYS } from './conditions.ts';
import type { Conditions, Day } from './conditions.ts';

/** A scan's wall clock in some zone: day 0 = Monday (index into DAYS), minute 0..1439. */
export interface LocalClock {
  day: number;
  minute: number;
}

const WEEKDAY_INDEX: Record<string, number> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };

// Building a DateTimeFormat is far slower than using one, and zones are few: keep one per zone
// for the life of the process.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // hourCycle h23 so midnight is 00, never 24.
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Weekday and minute-of-day of `now` on the wall clock of `timeZone`. */
export function localClock(now: Date, timeZone: string): LocalClock {
  let day = 0;
  let hour = 0;
  let minute = 0;
  for (const part of formatterFor(timeZone).formatToParts(now)) {
    if (part.type === 'weekday') day = WEEKDAY_INDEX[part.value] ?? 0;
    else if (part.type === 'hour') hour = Number(part.value) % 24;
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return { day, minute: hour * 60 + minute };
}

function parseClock(text: string): number {
  const [hours = '0', minutes = '0'] = text.split(':');
  return Number(hours) * 60 + Number(minutes);
}

function formatClock(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

const title = (day: Day): string => day.charAt(0).toUpperCase() + day.slice(1);

/** "Mon–Fri", "Sat, Sun", "Mon, Wed–Fri": runs of three or more days become ranges. */
function formatDays(days: ReadonlySet<number>): string {
  const parts: string[] = [];
  for (let i = 0; i < DAYS.length; i++) {
    if (!days.has(i)) continue;
    let end = i;
    while (end + 1 < DAYS.length && days.has(end + 1)) end++;
    const first = title(DAYS[i]!);
    if (end - i >= 2) parts.push(`${first}–${title(DAYS[end]!)}`);
    else for (let d = i; d <= end; d++) parts.push(title(DAYS[d]!));
    i = end;
  }
  return parts.join(', ');
}

export type TimeWindowSpec = Pick<Conditions, 'days' | 'from' | 'to' | 'timezone'>;

export interface TimeWindow {
  test(now: Date): boolean;
  describe(now: Date): string;
}

/**
 * A matcher for `days` and/or `from`–`to` ([from, to), local time). A window with from > to
 * crosses midnight and belongs to the day it starts on: fri 22:00–02:00 covers Saturday 01:00,
 * not Friday 01:00.
 */
export function compileTimeWindow(spec: TimeWindowSpec): TimeWindow {
  const zone = spec.timezone ?? 'UTC';
  const days = spec.days ? new Set(spec.days.map((d) => DAYS.indexOf(d))) : null;
  const from = spec.from !== undefined ? parseClock(spec.from) : null;
  const to = spec.to !== undefined ? parseClock(spec.to) : null;
  const onDay = (day: number): boolean => days === null || days.has(day);

  const matches = ({ day, minute }: LocalClock): boolean => {
    if (from === null || to === null) return onDay(day);
    if (from < to) return onDay(day) && minute >= from && minute < to;
    // After midnight we are in the tail of the window that opened yesterday.
    return (minute >= from && onDay(day)) || (minute < to && onDay((day + 6) % 7));
  };

  const window = [
    days ? formatDays(days) : '',
    from !== null && to !== null ? `${formatClock(from)}–${formatClock(to)}` : '',
  ]
    .filter(Boolean)
    .join(' ');

  return {
    test: (now) => matches(localClock(now, zone)),
    describe: (now) => {
      const clock = localClock(now, zone);
      return `local time ${title(DAYS[clock.day]!)} ${formatClock(clock.minute)} (${zone}) is outside ${window}`;
    },
  };
}
