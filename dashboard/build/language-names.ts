// Each catalogue's language named in itself ("Deutsch"), as the language picker offers it, worked
// out at build time: vite.config.ts serves them as the module `virtual:language-names`. In the
// browser the first Intl.DisplayNames loads ICU's display-name data, a task of 30-85 ms on this
// machine (4x that on Lighthouse's throttled phone) in the first render of every page, for two
// words that never change. A new file in src/i18n/locales/ is named here as the picker finds it.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const LOCALES_DIR = fileURLToPath(new URL('../src/i18n/locales/', import.meta.url));

/** The language tags there are catalogues for: the locales folder's file names, "de" for de.ts. */
export function catalogueTags(dir = LOCALES_DIR): string[] {
  return readdirSync(dir)
    .filter((file) => /^[\w-]+\.ts$/.test(file))
    .map((file) => file.slice(0, -'.ts'.length))
    .sort();
}

/** The source of `virtual:language-names` (its types: dashboard/src/language-names.d.ts). */
export function languageNamesModule(dir = LOCALES_DIR): string {
  const names = Object.fromEntries(
    catalogueTags(dir).map((tag) => [tag, new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag]),
  );
  return `export const LANGUAGE_NAMES = ${JSON.stringify(names)};`;
}
