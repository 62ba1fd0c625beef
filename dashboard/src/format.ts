// How values read in the dashboard: counts, dates, periods, countries and code contents, in the
// locale of the chosen language (i18n/locale.ts) and with its words.
import { currentMessages } from './i18n/index.ts';
import { cached, currentLocale } from './i18n/locale.ts';

export { formatCount, formatDate, formatDateTime, formatPercent } from './i18n/locale.ts';

const regionNames = cached((tag) => new Intl.DisplayNames([tag], { type: 'region' }));
const languageNames = cached((tag) => new Intl.DisplayNames([tag], { type: 'language' }));

const periodFormats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per locale, granularity and zone: a chart's periods share it (Intl's are slow to build). */
function periodFormat(granularity: string, timeZone: string): Intl.DateTimeFormat {
  const locale = currentLocale();
  const key = `${locale} ${granularity} ${timeZone}`;
  let format = periodFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      granularity === 'hour'
        ? { timeZone, month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
        : granularity === 'month'
          ? { timeZone, year: 'numeric', month: 'short' }
          : { timeZone, month: 'short', day: 'numeric' };
    periodFormats.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  }
  return format;
}

/** A period start as the server wrote it (with the zone's offset), in the zone it was asked in. */
export function formatPeriod(period: string, granularity: string, timeZone: string): string {
  const text = periodFormat(granularity, timeZone).format(new Date(period));
  return granularity === 'week' ? currentMessages().values.weekOf(text) : text;
}

/** An ISO 3166 code as its name in the chosen language, "DE" -> "Germany (DE)". */
export function countryName(code: string): string {
  try {
    return `${regionNames().of(code) ?? code} (${code})`;
  } catch {
    return code;
  }
}

/** A language tag as its name, "ja" -> "Japanese (ja)"; a tag the browser does not know stays as it is. */
export function languageName(tag: string): string {
  try {
    const name = languageNames().of(tag);
    return name && name !== tag ? `${name} (${tag})` : tag;
  } catch {
    return tag;
  }
}

const weekdays = {
  long: cached((tag) => new Intl.DateTimeFormat(tag, { weekday: 'long', timeZone: 'UTC' })),
  short: cached((tag) => new Intl.DateTimeFormat(tag, { weekday: 'short', timeZone: 'UTC' })),
};

/** The weekdays' names, Monday first (ISO's order), long ("Monday") or short ("Mon"). */
export function weekdayNames(width: 'long' | 'short'): string[] {
  const format = weekdays[width]();
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, d) => format.format(Date.UTC(2024, 0, 1 + d)));
}

/**
 * What a person calls a code: its name, else its scan URL, else (a static code) its content.
 * The id is for developers, shown beside it where they look for it.
 */
export function codeTitle(code: { name?: string | null; scanUrl?: string | null; type: string; content: unknown }) {
  return code.name || code.scanUrl || describeContent(code.type, code.content);
}

/** A breakdown value as a person reads it; null means the scan did not tell. */
export function breakdownLabel(dimension: string, value: string | null): string {
  const words = currentMessages().values;
  if (value === null) return dimension === 'referrer' ? words.noReferrer : words.unknown;
  if (dimension === 'country') return countryName(value);
  // "US/California/San Jose" reads "San Jose, California, United States (US)" (the region may be empty).
  if (dimension === 'region' || dimension === 'city') {
    const [country = '', ...names] = value.split('/');
    return [...names.reverse().filter(Boolean), countryName(country)].join(', ');
  }
  if (dimension === 'rule' && value === 'default') return words.defaultDestination;
  if (dimension === 'language') return languageName(value);
  // The OS comes written out already (Bowser's names: "iOS", "Windows", "Chrome OS"); the
  // device classes are the scan recorder's (Bowser's platform types, and bots).
  if (dimension === 'device') return words.devices[value] ?? value;
  return value;
}

/** One line for a code's content: the URL, or the main field of a static code. */
export function describeContent(type: string, content: unknown): string {
  if (typeof content === 'string') return content;
  const fields = (content ?? {}) as Record<string, unknown>;
  const main =
    fields.text ??
    fields.to ??
    fields.number ??
    fields.ssid ??
    fields.first_name ??
    (fields.latitude !== undefined ? `${fields.latitude}, ${fields.longitude}` : undefined);
  return `${type}: ${main === undefined ? JSON.stringify(content) : String(main)}`;
}

/** YYYY-MM-DD of an instant in a time zone (the form date inputs and the API take). */
export function isoDate(instant: Date, timeZone: string): string {
  return instant.toLocaleDateString('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
}
