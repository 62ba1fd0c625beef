// The module vite.config.ts builds from dashboard/build/language-names.ts, as the browser code sees it.
declare module 'virtual:language-names' {
  /** Each catalogue's language named in itself, by tag: { de: 'Deutsch', en: 'English' }. */
  export const LANGUAGE_NAMES: Readonly<Record<string, string>>;
}
