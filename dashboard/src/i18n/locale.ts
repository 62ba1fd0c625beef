// The locale numbers and dates are written in: the browser's own tag for the chosen language
// ("de-AT" for a browser set to Austrian German, "de" when German was picked in an English
// browser), set by i18n/index.ts. Formatters are made once per locale: Intl's are slow to build.
let locale = 'en';

export const currentLocale = (): string => locale;

export function setLocale(tag: string): void {
  locale = tag;
}

/** One Intl formatter per locale and options, built on first use. */
export function cached<T>(make: (locale: string) => T): () => T {
  const made = new Map<string, T>();
  return () => {
    let formatter = made.get(locale);
    if (!formatter) made.set(locale, (formatter = make(locale)));
    return formatter;
  };
}

const numbers = cached((tag) => new Intl.NumberFormat(tag));

/** A count as the locale writes it: 1,234 in English, 1.234 in German. */
export const formatCount = (n: number): string => numbers().format(n);

const percents = cached((tag) => new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 1 }));
const changes = cached(
  (tag) => new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }),
);

/** A fraction as a percentage: 0.42 reads 42% in English, 42 % in German. */
export const formatPercent = (fraction: number): string => percents().format(fraction);

/** A change given in percent, with its sign: 12.5 reads +12.5% in English, +12,5 % in German. */
export const signedPercent = (percent: number): string => changes().format(percent / 100);

const dateTimes = cached((tag) => new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }));
const dates = cached((tag) => new Intl.DateTimeFormat(tag, { dateStyle: 'medium' }));

/** An instant as the locale writes it: "Jan 5, 2026, 3:04 PM" in American English, "05.01.2026, 15:04" in German. */
export const formatDateTime = (iso: string): string => dateTimes().format(new Date(iso));

/** A day as the locale writes it; here, not in format.ts, for the invitation page of the first bundle. */
export const formatDate = (iso: string): string => dates().format(new Date(iso));

/**
 * Builds the number and date formatters every signed-in page uses, each in a task of its own,
 * while the page waits for its data: the first of each loads ICU's data for it (the first
 * NumberFormat took 18-116 ms in Chromium here), which otherwise lengthened the task that renders
 * the page's first rows or numbers. The sign-in page shows neither and does not pay for them.
 */
export function warmFormatters(): void {
  for (const warm of [numbers, dateTimes, dates]) setTimeout(warm, 0);
}

/**
 * The plural form of `n` in a catalogue's language, e.g. plural(n, { one: 'scan', other: 'scans' });
 * `other` is required because every language has it, the rest as the language needs them
 * (Polish has few and many, Japanese other only).
 */
export function pluralIn(language: string) {
  const rules = new Intl.PluralRules(language);
  return (n: number, forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }): string =>
    forms[rules.select(n)] ?? forms.other;
}
