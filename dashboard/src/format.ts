// How values read in the dashboard: counts, dates, periods, countries and code contents.

const numberFormat = new Intl.NumberFormat('en');
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

export const formatCount = (n: number) => numberFormat.format(n);

export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
}

/** A period start as the server wrote it (with the zone's offset), in the zone it was asked in. */
export function formatPeriod(period: string, granularity: string, timeZone: string): string {
  const date = new Date(period);
  if (granularity === 'hour')
    return date.toLocaleString('en', {
      timeZone,
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
  if (granularity === 'month') return date.toLocaleDateString('en', { timeZone, year: 'numeric', month: 'short' });
  const day = date.toLocaleDateString('en', { timeZone, month: 'short', day: 'numeric' });
  return granularity === 'week' ? `Week of ${day}` : day;
}

/** An ISO 3166 code as its English name, "DE" -> "Germany (DE)". */
export function countryName(code: string): string {
  try {
    return `${regionNames.of(code) ?? code} (${code})`;
  } catch {
    return code;
  }
}

/** A breakdown value as a person reads it; null means the scan did not tell. */
export function breakdownLabel(dimension: string, value: string | null): string {
  if (value === null) return dimension === 'referrer' ? 'No referrer (direct)' : 'Unknown';
  if (dimension === 'country') return countryName(value);
  // "US/California/San Jose" reads "San Jose, California, United States (US)" (the region may be empty).
  if (dimension === 'region' || dimension === 'city') {
    const [country = '', ...names] = value.split('/');
    return [...names.reverse().filter(Boolean), countryName(country)].join(', ');
  }
  if (dimension === 'rule' && value === 'default') return 'Default destination';
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
