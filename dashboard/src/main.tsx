import { render } from 'preact';
import { App } from './app.tsx';
import { startLanguage } from './i18n/index.ts';
import './styles.css';

// The first render waits for the language's catalogue (a chunk only for a language other than
// English), so no page shows in one language and then another.
void startLanguage().then(() => render(<App />, document.getElementById('app')!));
