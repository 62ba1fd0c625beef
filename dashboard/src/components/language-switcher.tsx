// The dashboard's language, in the top bar: each language named in itself ("Deutsch"), so a
// person who cannot read the current one still finds their own. The choice is remembered.
import { chooseLanguage, currentLanguage, languageNameOf, LANGUAGES, useT } from '../i18n/index.ts';

export function LanguageSwitcher() {
  const t = useT();
  return (
    <span class="language-switcher">
      <label for="language" class="visually-hidden">
        {t.shell.language}
      </label>
      <select id="language" value={currentLanguage()} onChange={(e) => void chooseLanguage(e.currentTarget.value)}>
        {LANGUAGES.map((tag) => (
          <option key={tag} value={tag} lang={tag}>
            {languageNameOf(tag)}
          </option>
        ))}
      </select>
    </span>
  );
}
