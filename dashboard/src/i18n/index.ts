// The dashboard's language: one catalogue of messages per language (locales/<tag>.ts), picked
// from the browser's languages unless the person chose one (kept in localStorage), and switched
// without a reload. English is bundled (the source of every key, and what a signed-out visitor
// most often reads); every other catalogue is a chunk of its own, loaded when chosen. A new file
// in locales/ is a new language: the glob below finds it, the picker lists it.
import { useEffect, useState } from 'preact/hooks';
import { LANGUAGE_NAMES } from 'virtual:language-names';
import en, { type Messages } from './locales/en.ts';
import { setLocale } from './locale.ts';

export type { Messages, Slot } from './locales/en.ts';

const STORAGE_KEY = 'qr-dashboard.language';

const others = import.meta.glob<{ default: Messages }>(['./locales/*.ts', '!./locales/en.ts']);
const catalogues: Record<string, () => Promise<Messages>> = {
  en: () => Promise.resolve(en),
  ...Object.fromEntries(
    Object.entries(others).map(([path, load]) => [
      /([\w-]+)\.ts$/.exec(path)![1]!,
      () => load().then((m) => m.default),
    ]),
  ),
};

/** The languages there are catalogues for, as tags ("de", "en"), in order. */
export const LANGUAGES: readonly string[] = Object.keys(catalogues).sort();

let language = 'en';
let messages: Messages = en;
const listeners = new Set<() => void>();

const baseOf = (tag: string) => tag.toLowerCase().split('-')[0]!;

function storedLanguage(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage refused (a privacy setting): the browser's languages decide.
    return null;
  }
}

/** The person's choice if there is one, else the first of the browser's languages there is a catalogue for. */
function detectLanguage(): string {
  const stored = storedLanguage();
  if (stored && LANGUAGES.includes(stored)) return stored;
  return navigator.languages.map(baseOf).find((tag) => LANGUAGES.includes(tag)) ?? 'en';
}

/**
 * Where numbers and dates take their shape from: the browser's own tag for that language
 * (en-GB writes 05/01/2026, en-US 1/5/2026), or the language alone when the browser does not
 * list it (German picked in an English browser).
 */
const formatLocaleOf = (tag: string) => navigator.languages.find((browser) => baseOf(browser) === tag) ?? tag;

async function apply(tag: string): Promise<void> {
  const loaded = await catalogues[tag]!();
  language = tag;
  messages = loaded;
  setLocale(formatLocaleOf(tag));
  document.documentElement.lang = tag;
  listeners.forEach((listener) => listener());
}

/** Loads the language detected for this browser before the first render (English when its chunk fails). */
export function startLanguage(): Promise<void> {
  return apply(detectLanguage()).catch(() => apply('en'));
}

/** Switches the dashboard to `tag` and remembers the choice for the next visit. */
export async function chooseLanguage(tag: string): Promise<void> {
  if (!LANGUAGES.includes(tag)) return;
  await apply(tag);
  try {
    localStorage.setItem(STORAGE_KEY, tag);
  } catch {
    // Not remembered: the choice holds until the tab closes.
  }
}

/** The current messages, outside a component (an error thrown, a title set). */
export const currentMessages = (): Messages => messages;

export const currentLanguage = (): string => language;

/** The current messages, re-rendering the caller when the language changes. */
export function useT(): Messages {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const update = () => setVersion((v) => v + 1);
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return messages;
}

/**
 * A language's name in that language, "Deutsch", as the picker offers it: named at build time
 * (dashboard/build/language-names.ts), so no page pays for Intl.DisplayNames' data to show it.
 */
export const languageNameOf = (tag: string): string => LANGUAGE_NAMES[tag] ?? tag;
